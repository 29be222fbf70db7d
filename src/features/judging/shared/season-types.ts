/** Wire types of a season's judging: eligible entries, panels and declared conflicts. */

/** How an entry came into an exam: approved in Round 1's category and edition, or shortlisted from an earlier exam. */
export type EntrySource = { kind: 'approved' } | { kind: 'shortlisted'; exam_id: number | null };

/** One eligible entry of an exam (`GET /api/exams/{id}/entries`). Admins only: it names the contest. */
export interface ExamEntry {
  contest_id: number;
  /** The blind code jurors see, null until the entry is first assigned. */
  code: string | null;
  /** The contest's status (`approved`, ...). */
  status: string;
  category_id: number;
  edition_id: number | null;
  source: EntrySource;
}

/** One juror as the panel editor shows them (`GET /api/exams/{id}/panel`). */
export interface PanelJuror {
  id: number;
  name: string;
  company: string | null;
  round: number;
  is_active: boolean;
  on_panel: boolean;
  /** Live assignments (not recused) in this exam. */
  load: number;
  /** Live assignments in every exam of the exam's edition. */
  edition_load: number;
  /** The category ids of the juror's application's expertise (empty when unknown). */
  expertise: number[];
}

/** An exam's panel: the jurors on it, and every juror who could be. `default`: no panel saved yet (the round's active jurors). */
export interface ExamPanel {
  exam_id: number;
  default: boolean;
  jury_ids: number[];
  jurors: PanelJuror[];
}

/** `PUT /api/exams/{id}/panel`. */
export interface PanelUpdate {
  jury_ids: number[];
}

/** A declared conflict of interest (`GET /api/juries/{id}/conflicts`). */
export interface JuryConflict {
  id: number;
  jury_id: number;
  kind: 'company' | 'entry' | 'brand';
  /** The entry's contest id (kind `entry`). */
  contest_id: number | null;
  /** The company's or brand's name (kinds `company`, `brand`). */
  name: string | null;
  reason: string;
  declared_by: 'admin' | 'juror';
  created_at: string;
}

/** `POST /api/juries/{id}/conflicts`. */
export interface JuryConflictInput {
  kind: 'company' | 'entry' | 'brand';
  contest_id?: number;
  name?: string;
  reason: string;
}
