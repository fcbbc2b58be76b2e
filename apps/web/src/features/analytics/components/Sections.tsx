/** The indicators of each section of `/analytics`: a chart and its table per indicator (decision 0035). */
import { IDSR_AGE_GROUPS } from '@greensen/shared/contracts/stats';
import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinutes } from '../../../lib/format';
import { money } from '../../../lib/money';
import { LoadError } from '../../../lib/page-states';
import {
  type DrilldownTarget,
  type Section,
  type SectionData,
  type StatsFilters,
  useStats,
} from '../api/stats';
import { IndicatorBlock } from './IndicatorBlock';

export interface SectionProps {
  filters: StatsFilters;
  context: [string, string][];
  /** Opens the records behind a figure; null when the user gets the numbers only. */
  onDrill: ((target: DrilldownTarget) => void) | null;
}

function Loaded<S extends Section>({
  section,
  filters,
  children,
}: {
  section: S;
  filters: StatsFilters;
  children: (data: SectionData[S]) => ReactNode;
}) {
  const query = useStats(section, filters);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Skeleton height={320} data-testid="stats-loading" />;
  return <Stack gap="md">{children(query.data)}</Stack>;
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

const minutes = (v: number | null) => (v === null ? null : Math.round(v));

export function ActivitySection({ filters, context }: SectionProps) {
  const { t } = useTranslation('analytics');
  const types = ['outpatient', 'emergency', 'maternity', 'inpatient'] as const;
  const colours = ['blue', 'red', 'pink', 'teal'];
  return (
    <Loaded section="activity" filters={filters}>
      {(data) => (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure
              label={t('activity.admissions')}
              value={data.admissions_by_day.reduce((s, d) => s + d.total, 0)}
            />
            <Figure
              label={t('activity.consultations')}
              value={data.consultations_by_doctor.reduce((s, d) => s + d.consultations, 0)}
            />
            <Figure label={t('activity.new')} value={data.patients.new} />
            <Figure label={t('activity.returning')} value={data.patients.returning} />
          </SimpleGrid>
          <IndicatorBlock
            id="admissions-by-day"
            title={t('activity.byDay')}
            context={context}
            rows={data.admissions_by_day}
            columns={[
              { label: t('columns.day'), value: (r) => r.day },
              ...types.map((type) => ({
                label: t(`types.${type}`),
                value: (r: (typeof data.admissions_by_day)[number]) => r[type],
                numeric: true,
              })),
              { label: t('columns.total'), value: (r) => r.total, numeric: true },
            ]}
            chart={{
              categories: data.admissions_by_day.map((d) => d.day.slice(5)),
              series: types.map((type, i) => ({
                label: t(`types.${type}`),
                values: data.admissions_by_day.map((d) => d[type]),
                colour: colours[i]!,
              })),
            }}
          />
          <IndicatorBlock
            id="consultations-by-doctor"
            title={t('activity.byDoctor')}
            context={context}
            rows={data.consultations_by_doctor}
            columns={[
              { label: t('columns.doctor'), value: (r) => r.doctor.full_name },
              { label: t('columns.consultations'), value: (r) => r.consultations, numeric: true },
              { label: t('columns.completed'), value: (r) => r.completed, numeric: true },
            ]}
            chart={{
              categories: data.consultations_by_doctor.slice(0, 12).map((d) => d.doctor.full_name),
              series: [
                {
                  label: t('columns.consultations'),
                  values: data.consultations_by_doctor.slice(0, 12).map((d) => d.consultations),
                  colour: 'blue',
                },
              ],
            }}
          />
          <IndicatorBlock
            id="age-sex-pyramid"
            title={t('activity.pyramid')}
            context={context}
            rows={data.pyramid}
            columns={[
              { label: t('columns.ageGroup'), value: (r) => t(`age.${r.age_group}`) },
              { label: t('columns.female'), value: (r) => r.F, numeric: true },
              { label: t('columns.male'), value: (r) => r.M, numeric: true },
            ]}
            chart={{
              categories: data.pyramid.map((g) => t(`age.${g.age_group}`)),
              series: [
                { label: t('columns.female'), values: data.pyramid.map((g) => g.F), colour: 'pink' },
                { label: t('columns.male'), values: data.pyramid.map((g) => g.M), colour: 'blue' },
              ],
            }}
          />
        </>
      )}
    </Loaded>
  );
}

export function FlowSection({ filters, context }: SectionProps) {
  const { t } = useTranslation('analytics');
  return (
    <Loaded section="flow" filters={filters}>
      {(data) => (
        <IndicatorBlock
          id="waiting-times"
          title={t('flow.title')}
          context={context}
          rows={data.levels}
          columns={[
            { label: t('columns.level'), value: (r) => r.level ?? t('flow.untriaged') },
            { label: t('columns.target'), value: (r) => r.target_minutes, numeric: true },
            { label: t('columns.visits'), value: (r) => r.visits, numeric: true },
            { label: t('columns.toTriage'), value: (r) => minutes(r.arrival_to_triage), numeric: true },
            { label: t('columns.toDoctor'), value: (r) => minutes(r.arrival_to_doctor), numeric: true },
            { label: t('columns.doctorToEnd'), value: (r) => minutes(r.doctor_to_end), numeric: true },
            {
              label: t('columns.medianToTriage'),
              value: (r) => minutes(r.median_arrival_to_triage),
              numeric: true,
            },
            {
              label: t('columns.medianToDoctor'),
              value: (r) => minutes(r.median_arrival_to_doctor),
              numeric: true,
            },
            {
              label: t('columns.medianDoctorToEnd'),
              value: (r) => minutes(r.median_doctor_to_end),
              numeric: true,
            },
            {
              label: t('columns.withinTarget'),
              value: (r) =>
                r.seen > 0 && r.target_minutes !== null ? Math.round((r.within_target / r.seen) * 100) : null,
              render: (r) =>
                r.seen > 0 && r.target_minutes !== null
                  ? `${Math.round((r.within_target / r.seen) * 100)} %`
                  : '—',
              numeric: true,
            },
          ]}
          chart={{
            categories: data.levels.map((l) => l.level ?? '—'),
            series: [
              {
                label: t('columns.toDoctor'),
                values: data.levels.map((l) => minutes(l.arrival_to_doctor)),
                colour: 'orange',
              },
              {
                label: t('columns.medianToDoctor'),
                values: data.levels.map((l) => minutes(l.median_arrival_to_doctor)),
                colour: 'grape',
              },
            ],
          }}
        />
      )}
    </Loaded>
  );
}

export function DiagnosesSection({ filters, context, onDrill }: SectionProps) {
  const { t } = useTranslation('analytics');
  const drill = (n: number, target: DrilldownTarget) =>
    onDrill && n > 0 ? (
      <Anchor component="button" type="button" onClick={() => onDrill(target)} data-testid="drill">
        {n}
      </Anchor>
    ) : (
      n
    );
  return (
    <Loaded section="diagnoses" filters={filters}>
      {(data) => (
        <>
          <IndicatorBlock
            id="idsr"
            title={t('diagnoses.idsr')}
            context={context}
            rows={data.idsr}
            columns={[
              { label: t('columns.disease'), value: (r) => t(`idsr.${r.disease}`) },
              ...IDSR_AGE_GROUPS.map((group) => ({
                label: t(`age.${group}`),
                value: (r: (typeof data.idsr)[number]) => r.by_age[group],
                render: (r: (typeof data.idsr)[number]) =>
                  drill(r.by_age[group], {
                    disease: r.disease,
                    age_group: group,
                    label: `${t(`idsr.${r.disease}`)} · ${t(`age.${group}`)}`,
                  }),
                numeric: true,
              })),
              {
                label: t('columns.total'),
                value: (r) => r.total,
                render: (r) => drill(r.total, { disease: r.disease, label: t(`idsr.${r.disease}`) }),
                numeric: true,
              },
            ]}
            chart={{
              categories: data.idsr.filter((d) => d.total > 0).map((d) => t(`idsr.${d.disease}`)),
              series: [
                {
                  label: t('columns.total'),
                  values: data.idsr.filter((d) => d.total > 0).map((d) => d.total),
                  colour: 'red',
                },
              ],
            }}
          />
          <IndicatorBlock
            id="top-diagnoses"
            title={t('diagnoses.top')}
            context={context}
            rows={data.top_codes}
            columns={[
              { label: t('columns.code'), value: (r) => r.code },
              { label: t('columns.label'), value: (r) => r.label },
              {
                label: t('columns.count'),
                value: (r) => r.count,
                render: (r) => drill(r.count, { code: r.code, label: `${r.code} ${r.label}` }),
                numeric: true,
              },
            ]}
            chart={{
              categories: data.top_codes.slice(0, 10).map((c) => c.code),
              series: [
                {
                  label: t('columns.count'),
                  values: data.top_codes.slice(0, 10).map((c) => c.count),
                  colour: 'grape',
                },
              ],
            }}
          />
          <IndicatorBlock
            id="icd-chapters"
            title={t('diagnoses.chapters')}
            context={context}
            rows={data.chapters}
            columns={[
              { label: t('columns.chapter'), value: (r) => r.chapter },
              { label: t('columns.label'), value: (r) => r.label },
              { label: t('columns.count'), value: (r) => r.count, numeric: true },
            ]}
          />
        </>
      )}
    </Loaded>
  );
}

export function LaboratorySection({ filters, context }: SectionProps) {
  const { t } = useTranslation('analytics');
  return (
    <Loaded section="laboratory" filters={filters}>
      {(data) => (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <Figure label={t('laboratory.malariaTested')} value={data.malaria.tested} />
            <Figure label={t('laboratory.malariaPositive')} value={data.malaria.positive} />
            <Figure
              label={t('laboratory.positivity')}
              value={
                data.malaria.tested > 0
                  ? `${Math.round((data.malaria.positive / data.malaria.tested) * 1000) / 10} %`
                  : '—'
              }
            />
          </SimpleGrid>
          <IndicatorBlock
            id="exams"
            title={t('laboratory.exams')}
            context={context}
            rows={data.exams}
            columns={[
              { label: t('columns.code'), value: (r) => r.code },
              { label: t('columns.exam'), value: (r) => r.name },
              { label: t('columns.requested'), value: (r) => r.requested, numeric: true },
              { label: t('columns.validated'), value: (r) => r.validated, numeric: true },
              { label: t('columns.cancelled'), value: (r) => r.cancelled, numeric: true },
              {
                label: t('columns.turnaround'),
                value: (r) => minutes(r.turnaround_minutes),
                render: (r) => (r.turnaround_minutes === null ? '—' : formatMinutes(r.turnaround_minutes)),
                numeric: true,
              },
            ]}
            chart={{
              categories: data.exams.slice(0, 10).map((e) => e.code),
              series: [
                {
                  label: t('columns.requested'),
                  values: data.exams.slice(0, 10).map((e) => e.requested),
                  colour: 'cyan',
                },
              ],
            }}
          />
        </>
      )}
    </Loaded>
  );
}

export function PharmacySection({ filters, context }: SectionProps) {
  const { t } = useTranslation('analytics');
  return (
    <Loaded section="pharmacy" filters={filters}>
      {(data) => (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <Figure label={t('pharmacy.stockOuts')} value={data.stock_outs} />
            <Figure label={t('pharmacy.belowReorder')} value={data.below_reorder_level} />
            <Figure
              label={t('pharmacy.dispensed')}
              value={data.consumption.reduce((s, r) => s + r.dispensed, 0)}
            />
          </SimpleGrid>
          <IndicatorBlock
            id="consumption"
            title={t('pharmacy.consumption')}
            context={context}
            rows={data.consumption}
            columns={[
              { label: t('columns.medicine'), value: (r) => r.presentation.name },
              { label: t('columns.unit'), value: (r) => r.presentation.unit },
              { label: t('columns.dispensed'), value: (r) => r.dispensed, numeric: true },
              { label: t('columns.dispensings'), value: (r) => r.dispensings, numeric: true },
              { label: t('columns.received'), value: (r) => r.received, numeric: true },
              { label: t('columns.writtenOff'), value: (r) => r.written_off, numeric: true },
              { label: t('columns.onHand'), value: (r) => r.on_hand, numeric: true },
            ]}
            chart={{
              categories: data.consumption.slice(0, 10).map((r) => r.presentation.code),
              series: [
                {
                  label: t('columns.dispensed'),
                  values: data.consumption.slice(0, 10).map((r) => r.dispensed),
                  colour: 'green',
                },
              ],
            }}
          />
          <IndicatorBlock
            id="stock-outs"
            title={t('pharmacy.outOfStock')}
            context={context}
            rows={data.out_of_stock}
            columns={[
              { label: t('columns.medicine'), value: (r) => r.presentation.name },
              { label: t('columns.pharmacy'), value: (r) => r.pharmacy.name },
              { label: t('columns.reorderLevel'), value: (r) => r.reorder_level, numeric: true },
              { label: t('columns.since'), value: (r) => r.since?.slice(0, 10) ?? null },
            ]}
          />
        </>
      )}
    </Loaded>
  );
}

export function InpatientSection({ filters, context }: SectionProps) {
  const { t } = useTranslation('analytics');
  return (
    <Loaded section="inpatient" filters={filters}>
      {(data) => (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            <Figure label={t('inpatient.admissions')} value={data.admissions} />
            <Figure label={t('inpatient.discharges')} value={data.discharges} />
            <Figure label={t('inpatient.deaths')} value={data.deaths} />
            <Figure label={t('inpatient.alos')} value={data.average_length_of_stay ?? '—'} />
            <Figure label={t('inpatient.beds')} value={data.beds} />
            <Figure
              label={t('inpatient.occupancy')}
              value={data.occupancy === null ? '—' : `${data.occupancy} %`}
            />
          </SimpleGrid>
          <IndicatorBlock
            id="discharges-by-mode"
            title={t('inpatient.byMode')}
            context={context}
            rows={data.discharges_by_mode}
            columns={[
              { label: t('columns.mode'), value: (r) => t(`modes.${r.mode}`) },
              { label: t('columns.count'), value: (r) => r.count, numeric: true },
            ]}
            chart={{
              categories: data.discharges_by_mode.map((m) => t(`modes.${m.mode}`)),
              series: [
                {
                  label: t('columns.count'),
                  values: data.discharges_by_mode.map((m) => m.count),
                  colour: 'teal',
                },
              ],
            }}
          />
        </>
      )}
    </Loaded>
  );
}

export function BillingSection({ filters, context }: SectionProps) {
  const { t } = useTranslation('analytics');
  return (
    <Loaded section="billing" filters={filters}>
      {(data) => (
        <>
          <IndicatorBlock
            id="revenue-by-method"
            title={t('billing.byMethod')}
            context={context}
            rows={data.by_method}
            columns={[
              {
                label: t('columns.method'),
                value: (r) => t(`methods.${r.method}`, { defaultValue: r.method }),
              },
              { label: t('columns.currency'), value: (r) => r.currency },
              { label: t('columns.payments'), value: (r) => r.count, numeric: true },
              {
                label: t('columns.amount'),
                value: (r) => money(Number(r.amount), r.currency),
                numeric: true,
              },
            ]}
          />
          <IndicatorBlock
            id="revenue-by-payer"
            title={t('billing.byPayer')}
            context={context}
            rows={data.by_payer}
            columns={[
              { label: t('columns.payer'), value: (r) => t(`payers.${r.payer_category}`) },
              { label: t('columns.currency'), value: (r) => r.currency },
              { label: t('columns.invoices'), value: (r) => r.invoices, numeric: true },
              { label: t('columns.total'), value: (r) => money(Number(r.total), r.currency), numeric: true },
              {
                label: t('columns.payerShare'),
                value: (r) => money(Number(r.payer_share), r.currency),
                numeric: true,
              },
              {
                label: t('columns.patientShare'),
                value: (r) => money(Number(r.patient_share), r.currency),
                numeric: true,
              },
            ]}
          />
          <Group>
            <Text size="xs" c="dimmed">
              {t('billing.note')}
            </Text>
          </Group>
        </>
      )}
    </Loaded>
  );
}
