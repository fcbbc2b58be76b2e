/** The texts of the medication-safety alerts, in French and English (issue 34). */
import { defineMessages } from '../../lib/i18n.js';

defineMessages({
  'safety.allergy': {
    fr: '{name} : allergie connue du patient ({allergy}).',
    en: '{name}: the patient has a known allergy ({allergy}).',
  },
  'safety.allergy_class': {
    fr: '{name} : allergie de classe ({allergy}) — même famille de médicaments.',
    en: '{name}: class allergy ({allergy}) — same family of medicines.',
  },
  'safety.allergy_cross_reactivity': {
    fr: '{name} : réaction croisée possible avec l’allergie « {allergy} ».',
    en: '{name}: possible cross-reaction with the allergy "{allergy}".',
  },
  'safety.allergies_not_recorded': {
    fr: 'Allergies jamais recherchées chez ce patient : demandez-les avant de prescrire.',
    en: 'Allergies were never recorded for this patient: ask before prescribing.',
  },
  'safety.dose_single_max': {
    fr: '{name} : {value} {unit} par prise, au-delà du maximum de {limit} {unit}.',
    en: '{name}: {value} {unit} per dose, above the maximum of {limit} {unit}.',
  },
  'safety.dose_daily_max': {
    fr: '{name} : {value} {unit} sur 24 h, au-delà du maximum de {limit} {unit} par jour.',
    en: '{name}: {value} {unit} in 24 h, above the maximum of {limit} {unit} a day.',
  },
  'safety.dose_daily_max_sum': {
    fr: '{name} : {value} {unit} sur 24 h en comptant {others}, au-delà du maximum de {limit} {unit} par jour.',
    en: '{name}: {value} {unit} in 24 h counting {others}, above the maximum of {limit} {unit} a day.',
  },
  'safety.dose_per_kg_dose': {
    fr: '{name} : {value} {unit}/kg par prise pour {weight} kg, au-delà de {limit} {unit}/kg.',
    en: '{name}: {value} {unit}/kg per dose for {weight} kg, above {limit} {unit}/kg.',
  },
  'safety.dose_per_kg_day': {
    fr: '{name} : {value} {unit}/kg par jour pour {weight} kg, au-delà de {limit} {unit}/kg/jour.',
    en: '{name}: {value} {unit}/kg a day for {weight} kg, above {limit} {unit}/kg/day.',
  },
  'safety.dose_unverifiable': {
    fr: '{name} : dose non vérifiable (écrivez-la en {unit}, en mL ou en unités de la présentation).',
    en: '{name}: the dose cannot be checked (write it in {unit}, in mL or in units of the presentation).',
  },
  'safety.weight_required': {
    fr: '{name} : le poids du patient est nécessaire pour vérifier la dose.',
    en: '{name}: the patient’s weight is needed to check the dose.',
  },
  'safety.duplicate_substance': {
    fr: '{name} : même substance que {other}{where}.',
    en: '{name}: same substance as {other}{where}.',
  },
  'safety.duplicate_class': {
    fr: '{name} : même classe thérapeutique ({atc}) que {other}{where}.',
    en: '{name}: same therapeutic class ({atc}) as {other}{where}.',
  },
  'safety.interaction': {
    fr: '{name} : interaction avec {other}{where}.',
    en: '{name}: interaction with {other}{where}.',
  },
  'safety.where_line': { fr: ' (autre ligne)', en: ' (another line)' },
  'safety.where_prescription': {
    fr: ' (ordonnance {number} en cours)',
    en: ' (active prescription {number})',
  },
  'safety.pregnancy_contraindicated': {
    fr: '{name} : contre-indiqué pendant la grossesse (patiente en maternité).',
    en: '{name}: contraindicated in pregnancy (patient in maternity).',
  },
  'safety.pregnancy_avoid': {
    fr: '{name} : à éviter pendant la grossesse (patiente en maternité).',
    en: '{name}: to be avoided in pregnancy (patient in maternity).',
  },
  'safety.patient_left': {
    fr: 'Le patient a quitté le service (séjour clôturé) : vérifiez avant de délivrer.',
    en: 'The patient has left (stay closed): check before dispensing.',
  },
  'safety.patient_deceased': {
    fr: 'Le patient est décédé.',
    en: 'The patient has died.',
  },
  'safety.timing_early': {
    fr: '{name} : dose donnée {minutes} min avant l’heure prévue.',
    en: '{name}: dose given {minutes} min before its time.',
  },
  'safety.timing_late': {
    fr: '{name} : dose donnée {minutes} min après l’heure prévue.',
    en: '{name}: dose given {minutes} min after its time.',
  },
  'safety.blocked': {
    fr: 'Alertes de sécurité bloquantes : une justification écrite est requise pour chacune.',
    en: 'Blocking safety alerts: a written reason is required for each.',
  },
  'care.stat_not_first': {
    fr: 'Une première dose immédiate n’est possible qu’avant toute dose donnée de cette ligne.',
    en: 'A first dose now is possible only before any dose of this line was given.',
  },
  'care.stat_as_needed': {
    fr: 'Une ligne « si besoin » se donne à tout moment : pas de première dose immédiate.',
    en: 'An as-needed line is given at any time: no first dose now.',
  },
  'safety.override_unknown': {
    fr: 'Cette justification ne correspond à aucune alerte.',
    en: 'This override matches no alert.',
  },
});
