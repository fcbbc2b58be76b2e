/**
 * The Hospital Overview (today, issue 24): the raw tables of one hospital since its midnight, read by the
 * dashboard (`StatsService.overview`). Built with drizzle's `sql` template only (values are parameters).
 */
import type { TDashboardOverview } from '@greensen/shared/contracts/stats';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';

const n = (v: unknown) => Number(v ?? 0);

export async function overview(
  q: Queryable,
  hospitalId: string,
  timeZone: string,
): Promise<Omit<TDashboardOverview, 'generated_at'>> {
  const midnight = sql`(((now() at time zone ${timeZone})::date)::timestamp at time zone ${timeZone})`;
  const todayQuery = q.execute<{
    admission_type: string;
    n: number;
    waiting: number;
    in_consultation: number;
    completed: number;
  }>(sql`
    select a.admission_type::text as admission_type, count(*)::int as n,
      count(*) filter (where a.status in ('waiting', 'assigned'))::int as waiting,
      count(*) filter (where a.status = 'in_consultation')::int as in_consultation,
      count(*) filter (where a.status = 'completed')::int as completed
    from admissions a
    where a.hospital_id = ${hospitalId} and a.admitted_at >= ${midnight} and a.status <> 'cancelled'
    group by a.admission_type`);
  // The waiting room: every visit still waiting (whatever its day), by its triage level.
  const waitingQuery = q.execute<{
    level: string | null;
    target: number | null;
    n: number;
    longest: number;
    average: number;
    over: number;
  }>(sql`
    select a.triage_level as level, max(a.triage_target_minutes)::int as target, count(*)::int as n,
      floor(max(extract(epoch from (now() - a.admitted_at)) / 60))::int as longest,
      floor(avg(extract(epoch from (now() - a.admitted_at)) / 60))::int as average,
      count(*) filter (where a.triage_target_minutes is not null
        and now() - a.admitted_at > make_interval(mins => a.triage_target_minutes))::int as over
    from admissions a
    where a.hospital_id = ${hospitalId} and a.status in ('waiting', 'assigned')
    group by a.triage_level order by min(a.triage_rank) nulls last`);
  const consultationsQuery = q.execute<{ n: number }>(sql`
    select count(*)::int as n from consultations c
    where c.hospital_id = ${hospitalId} and c.status = 'completed' and c.completed_at >= ${midnight}`);
  const inConsultationQuery = q.execute<{ n: number }>(sql`
    select count(*)::int as n from admissions a where a.hospital_id = ${hospitalId} and a.status = 'in_consultation'`);
  const outpatientQuery = q.execute<{
    id: string;
    name: string;
    n: number;
    waiting: number;
    in_consultation: number;
    completed: number;
  }>(sql`
    select d.id, d.name, count(*)::int as n,
      count(*) filter (where a.status in ('waiting', 'assigned'))::int as waiting,
      count(*) filter (where a.status = 'in_consultation')::int as in_consultation,
      count(*) filter (where a.status = 'completed')::int as completed
    from admissions a join departments d on d.id = a.department_id
    where a.hospital_id = ${hospitalId} and a.admitted_at >= ${midnight} and a.status <> 'cancelled'
    group by d.id, d.name order by n desc, d.name`);
  const staysQuery = q.execute<{
    id: string;
    name: string;
    census: number;
    pending: number;
    admitted_today: number;
  }>(sql`
    select d.id, d.name,
      count(*) filter (where s.status = 'admitted')::int as census,
      count(*) filter (where s.status = 'pending_bed')::int as pending,
      count(*) filter (where s.admitted_at >= ${midnight})::int as admitted_today
    from hospitalizations s join departments d on d.id = s.department_id
    where s.hospital_id = ${hospitalId} and s.status in ('pending_bed', 'admitted')
    group by d.id, d.name order by census desc, d.name`);
  const bedsQuery = q.execute<{ total: number; occupied: number; free: number }>(sql`
    select count(*)::int as total, count(*) filter (where b.status = 'occupied')::int as occupied,
      count(*) filter (where b.status = 'free')::int as free
    from beds b where b.hospital_id = ${hospitalId} and b.is_active`);
  const dischargedQuery = q.execute<{ mode: string; n: number }>(sql`
    select s.discharge_mode::text as mode, count(*)::int as n from hospitalizations s
    where s.hospital_id = ${hospitalId} and s.ended_at >= ${midnight} and s.discharge_mode is not null
    group by s.discharge_mode order by n desc`);
  const urgentQuery = q.execute<{ n: number }>(sql`
    select count(*)::int as n from exam_orders e
    where e.hospital_id = ${hospitalId} and e.status = 'validated' and e.urgency = 'urgent' and e.abnormal
      and e.acknowledged_at is null`);

  // Side by side on the pool (one after another on the embedded engine): the first load waits for the slowest.
  const [today, waiting, consultations, inConsultation, outpatient, stays, beds, discharged, urgent] =
    await Promise.all([
      todayQuery,
      waitingQuery,
      consultationsQuery,
      inConsultationQuery,
      outpatientQuery,
      staysQuery,
      bedsQuery,
      dischargedQuery,
      urgentQuery,
    ]);
  const byType = { outpatient: 0, emergency: 0, maternity: 0, inpatient: 0 };
  let admissions = 0;
  for (const r of today.rows) {
    byType[r.admission_type as keyof typeof byType] = n(r.n);
    admissions += n(r.n);
  }
  const waitingTotal = waiting.rows.reduce((s, r) => s + n(r.n), 0);
  const census = stays.rows.reduce((s, r) => s + n(r.census), 0);
  const pending = stays.rows.reduce((s, r) => s + n(r.pending), 0);
  const over = waiting.rows.reduce((s, r) => s + n(r.over), 0);
  const dischargedToday = discharged.rows.reduce((s, r) => s + n(r.n), 0);
  const bedRow = beds.rows[0];
  const alerts: TDashboardOverview['alerts'] = [];
  if (over > 0) alerts.push({ kind: 'wait_over_target', count: over });
  if (pending > 0) alerts.push({ kind: 'pending_bed', count: pending });
  if (n(urgent.rows[0]?.n) > 0) alerts.push({ kind: 'urgent_results', count: n(urgent.rows[0]?.n) });
  if (n(bedRow?.total) > 0 && n(bedRow?.free) === 0) alerts.push({ kind: 'no_free_bed', count: 0 });

  return {
    today: {
      admissions,
      by_type: byType,
      waiting: waitingTotal,
      in_consultation: n(inConsultation.rows[0]?.n),
      consultations_completed: n(consultations.rows[0]?.n),
      hospitalized: census,
      discharged: dischargedToday,
      deaths: n(discharged.rows.find((r) => r.mode === 'deceased')?.n),
    },
    alerts,
    waiting: waiting.rows.map((r) => ({
      level: r.level,
      target_minutes: r.target === null ? null : n(r.target),
      count: n(r.n),
      longest_minutes: n(r.longest),
      average_minutes: n(r.average),
      over_target: n(r.over),
    })),
    outpatient: outpatient.rows.map((r) => ({
      department: { id: r.id, name: r.name },
      admissions: n(r.n),
      waiting: n(r.waiting),
      in_consultation: n(r.in_consultation),
      completed: n(r.completed),
    })),
    inpatient: {
      beds: n(bedRow?.total),
      occupied: n(bedRow?.occupied),
      pending_bed: pending,
      by_department: stays.rows.map((r) => ({
        department: { id: r.id, name: r.name },
        census: n(r.census),
        pending_bed: n(r.pending),
        admitted_today: n(r.admitted_today),
      })),
    },
    discharged: discharged.rows.map((r) => ({ mode: r.mode, count: n(r.n) })),
  };
}
