/** Dynamic imports of the route pages (shared by the route table and the idle preloader). */
import type { ModuleName } from '@greensen/shared/domain/modules';
import type { ComponentType } from 'react';

export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

/**
 * Mantine's stylesheets beyond the sign-in page's (styles/mantine-rest.ts, issue 38). Asked before the page it goes
 * with, so that its stylesheet is in the document before the page's own (the bundler adds a chunk's stylesheet when
 * the chunk is asked for, once).
 */
export const loadRestStyles = (): Promise<unknown> => import('./styles/mantine-rest');

/** `load`, with the stylesheets of every page but the sign-in form. */
export function withRestStyles(load: PageLoader): PageLoader {
  return () => {
    const styles = loadRestStyles();
    return Promise.all([styles, load()]).then(([, module]) => module);
  };
}

export const pageLoaders = {
  login: () => import('../features/auth/pages/LoginPage'),
  register: () => import('../features/auth/pages/RegisterPage'),
  forgotPassword: () => import('../features/auth/pages/ForgotPasswordPage'),
  resetPassword: () => import('../features/auth/pages/ResetPasswordPage'),
  verifyEmail: () => import('../features/auth/pages/VerifyEmailPage'),
  acceptInvitation: () => import('../features/auth/pages/AcceptInvitationPage'),
  pinSetup: () => import('../features/auth/pages/PinSetupPage'),
  pinVerify: () => import('../features/auth/pages/PinVerifyPage'),
  maintenance: () => import('../features/maintenance/pages/MaintenancePage'),
  dashboard: () => import('../features/dashboard/pages/DashboardPage'),
  settings: () => import('../features/settings/pages/SettingsPage'),
  profile: () => import('../features/profile/pages/ProfilePage'),
  notFound: () => import('../features/errors/pages/NotFoundPage'),
  calendar: () => import('../features/appointments/pages/CalendarPage'),
  patients: () => import('../features/patients/pages/PatientsPage'),
  patientDetail: () => import('../features/patients/pages/PatientDetailPage'),
  admissions: () => import('../features/admissions/pages/AdmissionsPage'),
  admissionDetail: () => import('../features/admissions/pages/AdmissionDetailPage'),
  triage: () => import('../features/triage/pages/TriagePage'),
  triageDetail: () => import('../features/triage/pages/TriageDetailPage'),
  doctors: () => import('../features/doctors/pages/DoctorsPage'),
  doctorDetail: () => import('../features/doctors/pages/DoctorDetailPage'),
  consultations: () => import('../features/consultations/pages/ConsultationsPage'),
  consultationCreate: () => import('../features/consultations/pages/CreateConsultationPage'),
  consultationDetail: () => import('../features/consultations/pages/ConsultationDetailPage'),
  consultationDiagnosis: () => import('../features/consultations/pages/ConsultationDiagnosisPage'),
  /** The `consultation-access` route guard of the two consultation record pages. */
  consultationAccess: () => import('../features/consultations/components/ConsultationAccessGuard'),
  exams: () => import('../features/exams/pages/ExamsPage'),
  examCreate: () => import('../features/exams/pages/ExamCreatePage'),
  examDetail: () => import('../features/exams/pages/ExamDetailPage'),
  admin: () => import('../features/admin/pages/AdminPage'),
  adminJobs: () => import('../features/admin/pages/AdminJobsPage'),
  adminStaff: () => import('../features/admin/pages/StaffDetailPage'),
  hospitals: () => import('../features/hospitals/pages/HospitalsPage'),
  hospitalizations: () => import('../features/hospitalizations/pages/HospitalizationsPage'),
  hospitalizationDetail: () => import('../features/hospitalizations/pages/HospitalizationDetailPage'),
  transfers: () => import('../features/hospitalizations/pages/TransfersPage'),
  pharmacy: () => import('../features/pharmacy/pages/PharmacyPage'),
  pharmacyMedication: () => import('../features/pharmacy/pages/MedicationDetailPage'),
  pharmacyPrescription: () => import('../features/pharmacy/pages/PrescriptionDetailPage'),
  medications: () => import('../features/pharmacy/pages/MedicationsPage'),
  chat: () => import('../features/chat/pages/ChatPage'),
  templates: () => import('../features/templates/pages/TemplatesPage'),
  templateDetail: () => import('../features/templates/pages/TemplateDetailPage'),
  adminTemplates: () => import('../features/templates/pages/AdminTemplatesPage'),
  documents: () => import('../features/documents/pages/DocumentsPage'),
  verifyDocument: () => import('../features/documents/pages/VerifyDocumentPage'),
  notes: () => import('../features/notes/pages/NotesPage'),
  dictation: () => import('../features/notes/pages/DictationPage'),
  care: () => import('../features/care/pages/CarePage'),
  careDetail: () => import('../features/care/pages/CareDetailPage'),
  medicalActs: () => import('../features/medical-acts/pages/MedicalActsPage'),
  medicalActDetail: () => import('../features/medical-acts/pages/MedicalActDetailPage'),
  analytics: () => import('../features/analytics/pages/AnalyticsPage'),
  analyticsReport: () => import('../features/analytics/pages/ReportPage'),
  billing: () => import('../features/billing/pages/BillingPage'),
  invoiceDetail: () => import('../features/billing/pages/InvoiceDetailPage'),
  receipt: () => import('../features/billing/pages/ReceiptPage'),
  appointments: () => import('../features/appointments/pages/AppointmentsPage'),
  appointmentDetail: () => import('../features/appointments/pages/AppointmentDetailPage'),
} satisfies Record<string, PageLoader>;

/** The chunks of each module's pages, for idle preloading. */
export function loadersForModule(name: ModuleName): PageLoader[] {
  switch (name) {
    case 'dashboard':
      return [pageLoaders.dashboard];
    case 'patients':
      return [pageLoaders.patients, pageLoaders.patientDetail];
    case 'admissions':
      return [pageLoaders.admissions, pageLoaders.admissionDetail];
    case 'triage':
      return [pageLoaders.triage, pageLoaders.triageDetail];
    case 'doctors':
      return [pageLoaders.doctors, pageLoaders.doctorDetail];
    case 'consultations':
      return [
        pageLoaders.consultations,
        pageLoaders.consultationAccess,
        pageLoaders.consultationDetail,
        pageLoaders.consultationDiagnosis,
      ];
    case 'exams':
      return [pageLoaders.exams, pageLoaders.examDetail, pageLoaders.examCreate];
    case 'hospitals':
      return [pageLoaders.hospitals];
    case 'hospitalizations':
      return [pageLoaders.hospitalizations, pageLoaders.hospitalizationDetail, pageLoaders.transfers];
    case 'pharmacy':
      return [
        pageLoaders.pharmacy,
        pageLoaders.pharmacyPrescription,
        pageLoaders.pharmacyMedication,
        pageLoaders.medications,
      ];
    case 'care':
      return [pageLoaders.care, pageLoaders.careDetail];
    case 'admin':
      return [pageLoaders.admin, pageLoaders.adminJobs, pageLoaders.adminStaff, pageLoaders.adminTemplates];
    case 'templates':
      return [pageLoaders.templates, pageLoaders.templateDetail];
    case 'medical_acts':
      return [pageLoaders.medicalActs, pageLoaders.medicalActDetail];
    case 'analytics':
      return [pageLoaders.analytics, pageLoaders.analyticsReport];
    case 'billing':
      return [pageLoaders.billing, pageLoaders.invoiceDetail, pageLoaders.receipt];
    case 'appointments':
      return [pageLoaders.appointments, pageLoaders.appointmentDetail];
    case 'chat':
      return [pageLoaders.chat];
  }
}

/** Pages a signed-in user commonly opens besides modules. */
export const commonLoaders: readonly PageLoader[] = [pageLoaders.settings, pageLoaders.profile];
