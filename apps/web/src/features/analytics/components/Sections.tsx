/** The indicators of each section of `/analytics`: a chart and its table per indicator (decision 0035). */
import { IDSR_AGE_GROUPS } from '@greensen/shared/contracts/stats';
import { Anchor, Group, SimpleGrid, type SimpleGridProps, Skeleton, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Figure } from '../../../lib/figure';
import { formatDate, formatDayMonth, formatMinutes, formatNumber } from '../../../lib/format';
import { money } from '../../../lib/money';
import { LoadError } from '../../../lib/page-states';
import {
  type DrilldownTarget,
  type Section,
  type SectionData,
  type StatsFilters,
  useStats,
} from '../api/stats';
import type { ChartSeries } from './BarChart';
import { IndicatorBlock } from './IndicatorBlock';
import { PyramidChart } from './PyramidChart';

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

/** The headline figures of a section, side by side: `[label, value]` each. */
function Figures({ cols, items }: { cols: SimpleGridProps['cols']; items: [string, ReactNode][] }) {
  return (
    <SimpleGrid cols={cols}>
      {items.map(([label, value]) => (
        <Figure key={label} label={label} value={value} />
      ))}
    </SimpleGrid>
  );
}

/** One bar series of a chart: its label, colour and the value it takes from a row. */
interface SeriesOf<R> {
  label: string;
  value: (row: R) => number | null;
  colour: string;
}

/**
 * The chart beside an indicator's table, drawn from the same rows: one category a row (the first `limit` rows),
 * one bar per series.
 */
function chartOf<R>(
  rows: R[],
  category: (row: R) => string,
  series: SeriesOf<R>[],
  limit = rows.length,
): { categories: string[]; series: ChartSeries[] } {
  const shown = rows.slice(0, limit);
  return {
    categories: shown.map(category),
    series: series.map((s) => ({ label: s.label, values: shown.map(s.value), colour: s.colour })),
  };
}

/** What a section draws with its figures: the section's props and the translation function. */
type Draw<S extends Section> = (
  data: SectionData[S],
  props: SectionProps & { t: TFunction<'analytics'> },
) => ReactNode;

/** The oldest band on top, the youngest at the base, the unknown ages under the pyramid. */
function pyramidBands<R extends { age_group: string }>(rows: R[]): R[] {
  const known = rows.filter((r) => r.age_group !== 'unknown').reverse();
  return [...known, ...rows.filter((r) => r.age_group === 'unknown')];
}

const minutes = (v: number | null) => (v === null ? null : Math.round(v));

const drawActivity: Draw<'activity'> = (data, { t, context }) => {
  const types = ['outpatient', 'emergency', 'maternity', 'inpatient'] as const;
  const colours = ['blue', 'red', 'pink', 'teal'];
  return (
    <>
      <Figures
        cols={{ base: 2, sm: 4 }}
        items={[
          [t('activity.admissions'), data.admissions_by_day.reduce((s, d) => s + d.total, 0)],
          [
            t('activity.consultations'),
            data.consultations_by_doctor.reduce((s, d) => s + d.consultations, 0),
          ],
          [t('activity.new'), data.patients.new],
          [t('activity.returning'), data.patients.returning],
        ]}
      />
      <IndicatorBlock
        id="admissions-by-day"
        title={t('activity.byDay')}
        context={context}
        rows={data.admissions_by_day}
        columns={[
          { label: t('columns.day'), value: (r) => r.day, render: (r) => formatDate(r.day) },
          ...types.map((type) => ({
            label: t(`types.${type}`),
            value: (r: (typeof data.admissions_by_day)[number]) => r[type],
            numeric: true,
          })),
          { label: t('columns.total'), value: (r) => r.total, numeric: true },
        ]}
        chart={chartOf(
          data.admissions_by_day,
          (d) => formatDayMonth(d.day),
          types.map((type, i) => ({
            label: t(`types.${type}`),
            value: (d) => d[type],
            colour: colours[i]!,
          })),
        )}
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
        chart={chartOf(
          data.consultations_by_doctor,
          (d) => d.doctor.full_name,
          [{ label: t('columns.consultations'), value: (d) => d.consultations, colour: 'blue' }],
          12,
        )}
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
        figure={
          <PyramidChart
            title={t('activity.pyramid')}
            menLabel={t('columns.male')}
            womenLabel={t('columns.female')}
            bands={pyramidBands(data.pyramid).map((g) => ({
              label: t(`age.${g.age_group}`),
              men: g.M,
              women: g.F,
            }))}
          />
        }
      />
    </>
  );
};

const drawFlow: Draw<'flow'> = (data, { t, context }) => (
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
          r.seen > 0 && r.target_minutes !== null ? `${Math.round((r.within_target / r.seen) * 100)} %` : '—',
        numeric: true,
      },
    ]}
    chart={chartOf(data.levels, (l) => l.level ?? '—', [
      { label: t('columns.toDoctor'), value: (l) => minutes(l.arrival_to_doctor), colour: 'orange' },
      {
        label: t('columns.medianToDoctor'),
        value: (l) => minutes(l.median_arrival_to_doctor),
        colour: 'grape',
      },
    ])}
  />
);

const drawDiagnoses: Draw<'diagnoses'> = (data, { t, context, onDrill }) => {
  const drill = (n: number, target: DrilldownTarget) =>
    onDrill && n > 0 ? (
      <Anchor component="button" type="button" onClick={() => onDrill(target)} data-testid="drill">
        {n}
      </Anchor>
    ) : (
      n
    );
  return (
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
        chart={chartOf(
          data.idsr.filter((d) => d.total > 0),
          (d) => t(`idsr.${d.disease}`),
          [{ label: t('columns.total'), value: (d) => d.total, colour: 'red' }],
        )}
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
        chart={chartOf(
          data.top_codes,
          (c) => c.code,
          [{ label: t('columns.count'), value: (c) => c.count, colour: 'grape' }],
          10,
        )}
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
  );
};

const drawLaboratory: Draw<'laboratory'> = (data, { t, context }) => (
  <>
    <Figures
      cols={{ base: 2, sm: 3 }}
      items={[
        [t('laboratory.malariaTested'), data.malaria.tested],
        [t('laboratory.malariaPositive'), data.malaria.positive],
        [
          t('laboratory.positivity'),
          data.malaria.tested > 0
            ? `${Math.round((data.malaria.positive / data.malaria.tested) * 1000) / 10} %`
            : '—',
        ],
      ]}
    />
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
      chart={chartOf(
        data.exams,
        (e) => e.code,
        [{ label: t('columns.requested'), value: (e) => e.requested, colour: 'cyan' }],
        10,
      )}
    />
  </>
);

const drawPharmacy: Draw<'pharmacy'> = (data, { t, context }) => (
  <>
    <Figures
      cols={{ base: 2, sm: 3 }}
      items={[
        [t('pharmacy.stockOuts'), data.stock_outs],
        [t('pharmacy.belowReorder'), data.below_reorder_level],
        [t('pharmacy.dispensed'), data.consumption.reduce((s, r) => s + r.dispensed, 0)],
      ]}
    />
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
      chart={chartOf(
        data.consumption,
        (r) => r.presentation.code,
        [{ label: t('columns.dispensed'), value: (r) => r.dispensed, colour: 'green' }],
        10,
      )}
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
);

const drawInpatient: Draw<'inpatient'> = (data, { t, context }) => (
  <>
    <Figures
      cols={{ base: 2, sm: 3, lg: 6 }}
      items={[
        [t('inpatient.admissions'), data.admissions],
        [t('inpatient.discharges'), data.discharges],
        [t('inpatient.deaths'), data.deaths],
        [
          t('inpatient.alos'),
          data.average_length_of_stay === null ? '—' : formatNumber(data.average_length_of_stay),
        ],
        [t('inpatient.beds'), data.beds],
        [t('inpatient.occupancy'), data.occupancy === null ? '—' : `${formatNumber(data.occupancy)} %`],
      ]}
    />
    <IndicatorBlock
      id="discharges-by-mode"
      title={t('inpatient.byMode')}
      context={context}
      rows={data.discharges_by_mode}
      columns={[
        { label: t('columns.mode'), value: (r) => t(`modes.${r.mode}`) },
        { label: t('columns.count'), value: (r) => r.count, numeric: true },
      ]}
      chart={chartOf(data.discharges_by_mode, (m) => t(`modes.${m.mode}`), [
        { label: t('columns.count'), value: (m) => m.count, colour: 'teal' },
      ])}
    />
  </>
);

const drawBilling: Draw<'billing'> = (data, { t, context }) => (
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
);

const DRAW: { [S in Section]: Draw<S> } = {
  activity: drawActivity,
  flow: drawFlow,
  diagnoses: drawDiagnoses,
  laboratory: drawLaboratory,
  pharmacy: drawPharmacy,
  inpatient: drawInpatient,
  billing: drawBilling,
};

/**
 * A section of `/analytics`, in the one layout of them all: its figures loaded for the filters (a skeleton, then
 * the figures, or the error with a retry), then what the section draws of them (headline figures, indicators).
 */
export function AnalyticsSection<S extends Section>({ section, ...props }: SectionProps & { section: S }) {
  const { t } = useTranslation('analytics');
  const draw: Draw<S> = DRAW[section];
  return (
    <Loaded section={section} filters={props.filters}>
      {(data) => draw(data, { ...props, t })}
    </Loaded>
  );
}
