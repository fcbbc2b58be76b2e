import { defineMessages } from '../../lib/i18n.js';

/** Messages of the appointments module (issue 22), French first. */
defineMessages({
  'appointments.session_order': {
    fr: 'La fin de la plage doit être après son début.',
    en: 'The session must end after it starts.',
  },
  'appointments.sessions_overlap': {
    fr: 'Deux plages du même jour se chevauchent.',
    en: 'Two sessions of the same day overlap.',
  },
  'appointments.types_unique': {
    fr: 'Chaque type ne peut figurer qu’une fois.',
    en: 'Each type can appear only once.',
  },
  'appointments.validity_order': {
    fr: 'La fin de validité doit suivre son début.',
    en: 'The end of validity must follow its start.',
  },
  'appointments.cancel_reason_required': {
    fr: 'Indiquez le motif de l’annulation des rendez-vous.',
    en: 'Give the reason for cancelling the appointments.',
  },
  'appointments.dates_order': {
    fr: 'La date de fin doit suivre la date de début.',
    en: 'The end date must follow the start date.',
  },
  'appointments.slot_target_required': {
    fr: 'Choisissez un prestataire ou un service.',
    en: 'Choose a provider or a department.',
  },
  'appointments.provider_unknown': {
    fr: 'Cette personne ne consulte pas dans cet hôpital.',
    en: 'This person does not see patients in this hospital.',
  },
  'appointments.department_unknown': { fr: 'Service inconnu ou fermé.', en: 'Unknown or closed department.' },
  'appointments.patient_unknown': { fr: 'Patient inconnu.', en: 'Unknown patient.' },
  'appointments.schedule_overlap': {
    fr: 'Ce prestataire a déjà un planning sur ces jours et heures.',
    en: 'This provider already has a schedule on these days and hours.',
  },
  'appointments.schedule_ended': { fr: 'Ce planning est terminé.', en: 'This schedule has ended.' },
  'appointments.bookings_affected': {
    fr: '{count} rendez-vous à venir sont concernés : indiquez s’il faut les garder ou les annuler.',
    en: '{count} upcoming appointments are affected: say whether to keep or cancel them.',
  },
  'appointments.own_exceptions': {
    fr: 'Vous ne pouvez gérer que vos propres absences.',
    en: 'You can only manage your own absences.',
  },
  'appointments.holiday_exists': { fr: 'Ce jour est déjà férié.', en: 'This day is already a holiday.' },
  'appointments.range_too_long': {
    fr: 'La période de recherche est trop longue (62 jours au plus).',
    en: 'The search period is too long (62 days at most).',
  },
  'appointments.slot_past': { fr: 'Ce créneau est passé.', en: 'This slot is in the past.' },
  'appointments.not_a_slot': {
    fr: 'Ce n’est pas un créneau du planning de ce prestataire dans ce service.',
    en: 'This is not a slot of this provider’s schedule in this department.',
  },
  'appointments.type_not_allowed': {
    fr: 'Ce type de rendez-vous n’est pas proposé sur ce créneau.',
    en: 'This type of appointment is not offered in this slot.',
  },
  'appointments.slot_full': {
    fr: 'Ce créneau est complet. Choisissez un autre créneau.',
    en: 'This slot is full. Choose another slot.',
  },
  'appointments.patient_already_booked': {
    fr: 'Ce patient a déjà un rendez-vous sur ce créneau.',
    en: 'This patient already has an appointment in this slot.',
  },
  'appointments.overbook_forbidden': {
    fr: 'Seul un médecin chef peut réserver au-delà de la capacité d’un créneau.',
    en: 'Only a head doctor can book beyond a slot’s capacity.',
  },
  'appointments.illegal_transition': {
    fr: 'Un rendez-vous « {from} » ne peut pas passer à « {to} ».',
    en: 'An appointment that is “{from}” cannot become “{to}”.',
  },
  'appointments.closed': { fr: 'Ce rendez-vous est clos.', en: 'This appointment is closed.' },
  'appointments.not_started': {
    fr: 'L’heure du rendez-vous n’est pas encore arrivée.',
    en: 'The appointment time has not come yet.',
  },
  'appointments.same_slot': {
    fr: 'Le rendez-vous est déjà sur ce créneau.',
    en: 'The appointment is already in this slot.',
  },
  'appointments.not_today': {
    fr: 'L’enregistrement d’arrivée se fait le jour du rendez-vous.',
    en: 'Check-in happens on the day of the appointment.',
  },
  'appointments.department_no_visits': {
    fr: 'Ce service ne reçoit pas de visites.',
    en: 'This department does not receive visits.',
  },
  'appointments.notify.booked.title': { fr: 'Nouveau rendez-vous', en: 'New appointment' },
  'appointments.notify.booked.message': {
    fr: '{patient} ({record}) le {time}.',
    en: '{patient} ({record}) on {time}.',
  },
  'appointments.notify.moved.title': { fr: 'Rendez-vous déplacé', en: 'Appointment moved' },
  'appointments.notify.moved.message': {
    fr: '{patient} ({record}) : nouvel horaire le {time}.',
    en: '{patient} ({record}): new time {time}.',
  },
  'appointments.notify.cancelled.title': { fr: 'Rendez-vous annulé', en: 'Appointment cancelled' },
  'appointments.notify.cancelled.message': {
    fr: '{patient} ({record}) le {time} est annulé.',
    en: '{patient} ({record}) on {time} is cancelled.',
  },
  'appointments.notify.bulk_cancelled.title': { fr: 'Rendez-vous annulés', en: 'Appointments cancelled' },
  'appointments.notify.bulk_cancelled.message': {
    fr: '{count} rendez-vous de votre planning ont été annulés : {reason}.',
    en: '{count} appointments of your schedule were cancelled: {reason}.',
  },
  'appointments.notify.schedule_created.title': { fr: 'Nouveau planning', en: 'New schedule' },
  'appointments.notify.schedule_created.message': {
    fr: 'Un planning de consultations a été créé pour vous.',
    en: 'A consultation schedule was created for you.',
  },
  'appointments.notify.schedule_changed.title': { fr: 'Planning modifié', en: 'Schedule changed' },
  'appointments.notify.schedule_changed.message': {
    fr: 'Votre planning de consultations a été modifié.',
    en: 'Your consultation schedule was changed.',
  },
  'appointments.notify.schedule_ended.title': { fr: 'Planning terminé', en: 'Schedule ended' },
  'appointments.notify.schedule_ended.message': {
    fr: 'Un de vos plannings de consultations a été arrêté.',
    en: 'One of your consultation schedules was ended.',
  },
  'appointments.notify.schedule_exception.title': { fr: 'Absence enregistrée', en: 'Absence recorded' },
  'appointments.notify.schedule_exception.message': {
    fr: 'Une absence a été ajoutée à votre planning.',
    en: 'An absence was added to your schedule.',
  },
  'appointments.type.new': { fr: 'Première consultation', en: 'New patient' },
  'appointments.type.follow_up': { fr: 'Suivi', en: 'Follow-up' },
  'appointments.type.antenatal': { fr: 'Consultation prénatale', en: 'Antenatal care' },
  'appointments.type.vaccination': { fr: 'Vaccination', en: 'Vaccination' },
  'appointments.type.procedure': { fr: 'Acte', en: 'Procedure' },
  'appointments.type.other': { fr: 'Rendez-vous', en: 'Appointment' },
  'appointments.status.booked': { fr: 'Réservé', en: 'Booked' },
  'appointments.status.confirmed': { fr: 'Confirmé', en: 'Confirmed' },
  'appointments.status.checked_in': { fr: 'Arrivé', en: 'Checked in' },
  'appointments.status.completed': { fr: 'Terminé', en: 'Completed' },
  'appointments.status.no_show': { fr: 'Absent', en: 'No-show' },
  'appointments.status.cancelled': { fr: 'Annulé', en: 'Cancelled' },
  'appointments.reminder.subject': {
    fr: 'Rappel : votre rendez-vous {day} à {time}',
    en: 'Reminder: your appointment on {day} at {time}',
  },
  'appointments.reminder.text': {
    fr: 'Bonjour,\n\nNous vous rappelons votre rendez-vous ({type}) {day} à {time} avec {provider}, service {department}, {hospital}.\n\nEn cas d’empêchement, merci de prévenir l’accueil.',
    en: 'Hello,\n\nThis is a reminder of your appointment ({type}) on {day} at {time} with {provider}, {department} department, {hospital}.\n\nIf you cannot come, please let the front desk know.',
  },
  'appointments.reminder.sms': {
    fr: 'Rappel : RDV {day} à {time}, {provider}, {hospital}. Empêchement ? Prévenez l’accueil.',
    en: 'Reminder: appointment on {day} at {time}, {provider}, {hospital}. Cannot come? Tell the front desk.',
  },
});
