/**
 * Medicines and prescriptions as people read them (issue 18): the INN in the UI language, a presentation
 * ("Comprimé 500 mg"), a structured frequency and a whole posology in words ("1 comprimé 3 fois par jour pendant
 * 3 jours"). Units of the reference are codes (tablet, vial, mL…) put in words with their plural by the shared
 * list the printed documents use too (`@greensen/shared/domain/dose-units`); an unknown unit is shown as written.
 */
import type { TFrequency, TPresentation } from '@greensen/shared/contracts/pharmacy';
import type { Language } from '@greensen/shared/domain/constants';
import { doseUnitLabel } from '@greensen/shared/domain/dose-units';
import { formatNumber } from '../../format';
import { translate, uiLanguage } from '../../i18n';
import { useModuleAllowed, usePermissions } from '../../permissions';

export function medicationName(medication: { inn_fr: string; inn_en: string }, lang: Language): string {
  return lang === 'en' ? medication.inn_en : medication.inn_fr;
}

/** A unit code in words, agreeing with the amount ("1 comprimé", "2 comprimés"). */
export function unitLabel(unit: string, count: number, lang: Language = uiLanguage()): string {
  return doseUnitLabel(unit, count, lang);
}

/** A dose as the language writes it, with its unit in words ("1,5 gélule", "2 comprimés"). */
export function doseLabel(dose: number, unit: string, lang: Language = uiLanguage()): string {
  return `${formatNumber(dose, lang)} ${unitLabel(unit, dose, lang)}`;
}

export function formLabel(form: TPresentation['form']): string {
  return translate(`pharmacy:forms.${form}`);
}

export function routeLabel(route: TPresentation['route']): string {
  return translate(`pharmacy:routes.${route}`);
}

/** "Comprimé 500 mg", "Injection 60 mg/vial". */
export function presentationLabel(presentation: Pick<TPresentation, 'form' | 'strength'>): string {
  return `${formLabel(presentation.form)} ${presentation.strength}`.trim();
}

/** "3 fois par jour", "toutes les 8 heures", "le soir au coucher", "si besoin (4 fois par jour au plus)". */
export function frequencyLabel(frequency: TFrequency): string {
  switch (frequency.kind) {
    case 'times_per_day':
      return translate('pharmacy:frequency.text.times_per_day', { count: frequency.times });
    case 'every_hours':
      return translate('pharmacy:frequency.text.every_hours', { count: frequency.hours });
    case 'as_needed':
      return translate('pharmacy:frequency.text.as_needed', { count: frequency.max_per_day });
    default:
      return translate(`pharmacy:frequency.text.${frequency.kind}`);
  }
}

export interface PosologyLike {
  dose: number;
  dose_unit: string;
  frequency: TFrequency;
  duration_days: number | null;
}

/** The posology in words: "1 comprimé 3 fois par jour pendant 3 jours". */
export function posologyText(line: PosologyLike, lang: Language): string {
  const dose = doseLabel(line.dose, line.dose_unit, lang);
  const duration = line.duration_days
    ? ` ${translate('pharmacy:posology.duration', { count: line.duration_days })}`
    : '';
  return `${dose} ${frequencyLabel(line.frequency)}${duration}`;
}

/** Whether the pharmacy module (medicines, prescriptions) is open to the user. */
export function usePharmacyAllowed(): boolean {
  return useModuleAllowed('pharmacy');
}

/** Whether the user may write prescriptions (practitioners, with the pharmacy module). */
export function useMayPrescribe(): boolean {
  return usePermissions().can('prescription.write');
}
