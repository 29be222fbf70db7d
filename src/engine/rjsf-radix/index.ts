/**
 * The Radix Themes theme for RJSF: the widgets and templates the engine ships, registered by name
 * through `registerExtension` exactly as a feature registers its own
 * (its client face, `src/features/<name>/client.ts`). A uiSchema names a widget (`"ui:widget": "switch"`); the form
 * engine passes every registered widget and template to RJSF (`registeredWidgets()`), and
 * `widgetFor(name)` resolves a name to its component. To add a widget to the engine: import it,
 * add one line to `widgets` below (keep the sections) and its name to `WIDGET_NAMES`.
 */
import type { RegistryWidgetsType, TemplatesType, Widget } from '@rjsf/utils';
import type { WidgetName } from '../../shared/descriptor/types.js';
import { registerExtension, registeredWidget, registeredWidgets } from '../registry/extension-registry.js';
import { BaseInputTemplate } from './templates/base-input-template.js';
import { FieldErrorTemplate } from './templates/field-error-template.js';
import { FieldTemplate } from './templates/field-template.js';
import { DescriptionFieldTemplate, ErrorListTemplate, FieldHelpTemplate, ObjectFieldTemplate, TitleFieldTemplate } from './templates/simple-templates.js';
import { AmountCurrencyTemplate, AmountWidget, CurrencyWidget } from './widgets/amount-currency-widget.js';
import { CalendarDateWidget } from './widgets/calendar-date-widget.js';
import { CheckboxWidget, RadioWidget, SelectWidget } from './widgets/choice-widgets.js';
import { ReferenceSelectWidget } from './widgets/reference-select-widget.js';
import { SearchableSelectWidget } from './widgets/searchable-select-widget.js';
import { ActiveSwitchWidget, SwitchWidget } from './widgets/switch-widgets.js';
import { DateWidget, EmailWidget, HiddenWidget, NumberWidget, PasswordWidget, TextareaWidget, TextWidget, UrlWidget } from './widgets/text-widgets.js';
import { ZonedDateTimeWidget } from './widgets/zoned-date-time-widget.js';

/**
 * Widgets by the name a `ui:widget` uses: every name of the shared `WIDGET_NAMES` (the compiler
 * checks it), and the PascalCase names RJSF picks by schema type.
 */
export const widgets: RegistryWidgetsType & Record<WidgetName, Widget> = {
  // Basic widgets (engine-client engineer). The PascalCase names are the ones RJSF picks by schema type.
  text: TextWidget,
  TextWidget,
  textarea: TextareaWidget,
  TextareaWidget,
  email: EmailWidget,
  EmailWidget,
  password: PasswordWidget,
  PasswordWidget,
  number: NumberWidget,
  UpDownWidget: NumberWidget,
  url: UrlWidget,
  URLWidget: UrlWidget,
  select: SelectWidget,
  SelectWidget,
  radio: RadioWidget,
  RadioWidget,
  checkbox: CheckboxWidget,
  CheckboxWidget,
  switch: SwitchWidget,
  'active-switch': ActiveSwitchWidget,
  // Dates (`format: date`) use the calendar picker: read-only, set only by picking.
  date: CalendarDateWidget,
  DateWidget: CalendarDateWidget,
  'native-date': DateWidget,
  // Date-times (`format: date-time`): typed in the user's time zone, stored as ISO UTC.
  datetime: ZonedDateTimeWidget,
  DateTimeWidget: ZonedDateTimeWidget,
  hidden: HiddenWidget,
  HiddenWidget,
  // Widgets engineer's widgets (searchable-select, reference-select, calendar-date, amount-currency)
  'searchable-select': SearchableSelectWidget,
  'reference-select': ReferenceSelectWidget,
  'calendar-date': CalendarDateWidget,
  amount: AmountWidget,
  currency: CurrencyWidget,
};

/** RJSF templates overriding the core ones. */
export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  FieldErrorTemplate,
  BaseInputTemplate,
  ObjectFieldTemplate,
  TitleFieldTemplate,
  DescriptionFieldTemplate,
  FieldHelpTemplate,
  ErrorListTemplate,
  // Per-field templates, chosen by name in a uiSchema (`"ui:ObjectFieldTemplate": "amount-currency"`).
  'amount-currency': AmountCurrencyTemplate,
};

registerExtension({ widgets, templates });

export { registeredTemplates, registeredWidgets } from '../registry/extension-registry.js';

/** The widget registered under `name` (the engine's or an application's), or `undefined` when none is. */
export function widgetFor(name: string): Widget | undefined {
  return registeredWidget(name);
}

/** Names of every registered widget, the engine's and an application's. */
export function widgetNames(): string[] {
  return Object.keys(registeredWidgets());
}
