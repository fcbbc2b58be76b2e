/**
 * The doctor's dashboard as it opens (issue 38): the queue's page size and keys' scope, and the queries the app
 * starts for it as it starts — the open and completed queue and the workload (the doctor id is the user's id).
 */
import { doctorQueueQueryOptions } from '../../../lib/clinical/api/doctor-queue';
import { doctorWorkloadQueryOptions } from '../../../lib/clinical/api/doctor-workload';
import type { FirstQueries } from '../../../lib/first-data';

export const DOCTOR_QUEUE_PAGE_SIZE = 20;

/** The dashboard's keys (refreshed by the frame's timer and the dashboard flag: keys under ['dashboard']). */
export const DOCTOR_DASHBOARD_SCOPE = ['dashboard', 'doctor'] as const;

export const doctorHomeFirstQueries: FirstQueries = ({ hospitalId, userId }) =>
  userId
    ? [
        doctorQueueQueryOptions(
          hospitalId,
          userId,
          { status: 'open', page: 1, pageSize: DOCTOR_QUEUE_PAGE_SIZE },
          DOCTOR_DASHBOARD_SCOPE,
        ),
        doctorQueueQueryOptions(
          hospitalId,
          userId,
          { status: 'completed', page: 1, pageSize: DOCTOR_QUEUE_PAGE_SIZE },
          DOCTOR_DASHBOARD_SCOPE,
        ),
        doctorWorkloadQueryOptions(hospitalId, userId, DOCTOR_DASHBOARD_SCOPE),
      ]
    : [];
