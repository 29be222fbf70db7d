/**
 * The password policy for console accounts: 10 to 128 characters, not the account's
 * e-mail address, and not a common or easily guessed password as judged offline by zxcvbn-ts with
 * its common-password and English dictionaries. Applied whenever a password is set (register,
 * invitation, reset, change); passwords set before it keep working. Runs on the server and, loaded
 * lazily, in the browser, so both give the same reason.
 */
export const POLICY_MIN = 10;
export const POLICY_MAX = 128;
/** zxcvbn scores 0-1 mean fewer than a million guesses: a common password or a light variation of one. */
const MIN_SCORE = 2;

/** Why a password is refused: a translation key and its parameters. */
export interface PolicyProblem {
  keyword: 'minLength' | 'maxLength' | 'email' | 'common';
  messageKey: string;
  params: Record<string, unknown>;
}

/** The checks that need no dictionary: length and the e-mail address. */
export function passwordShapeProblem(password: string, email: string): PolicyProblem | null {
  if (password.length < POLICY_MIN) return { keyword: 'minLength', messageKey: 'validation.adminPassword.min', params: { limit: POLICY_MIN } };
  if (password.length > POLICY_MAX) return { keyword: 'maxLength', messageKey: 'validation.adminPassword.max', params: { limit: POLICY_MAX } };
  const address = email.trim().toLowerCase();
  const lowered = password.trim().toLowerCase();
  if (address && (lowered === address || lowered === address.split('@')[0])) {
    return { keyword: 'email', messageKey: 'validation.adminPassword.email', params: {} };
  }
  return null;
}

type Checker = (password: string) => number;
let checker: Promise<Checker> | undefined;

/** Loads the estimator and its dictionaries once (a separate chunk in the browser). */
function loadChecker(): Promise<Checker> {
  checker ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then((modules) => {
    // Node loads these packages as CommonJS (exports under `default`), bundlers as ES modules.
    const [core, common, en] = modules.map((m) => ('default' in m && m.default ? m.default : m)) as unknown as typeof modules;
    const factory = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
    });
    return (password: string) => factory.check(password).score;
  });
  return checker;
}

/** The first rule a new password breaks, or null when it may be used. */
export async function passwordPolicyProblem(password: string, email: string): Promise<PolicyProblem | null> {
  const shape = passwordShapeProblem(password, email);
  if (shape) return shape;
  const score = (await loadChecker())(password);
  return score < MIN_SCORE ? { keyword: 'common', messageKey: 'validation.adminPassword.common', params: {} } : null;
}
