/**
 * The medication-safety alerts (issue 34), one look at the prescriber's desk, the pharmacy counter and the
 * bedside: severity (information in blue, warning in orange, blocking in red), what the rule is about, the
 * server's message, the figures and the source behind it, the overrides already recorded (who, when, at which
 * step, why — the prescriber's, then the pharmacist's…) and — where the screen asks for one — the written reason to go on. The alerts come from the server;
 * nothing here decides whether a medicine is safe.
 */
import type { TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import { OVERRIDE_REASON_MIN } from '@greensen/shared/domain/medication-safety';
import { Alert, Badge, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertOctagon, IconAlertTriangle, IconInfoCircle, IconMessage2Check } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../format';
import { uiLanguage } from '../../i18n';
import { NEVER_CUT } from '../../theme';

const LOOK = {
  info: { color: 'blue', Icon: IconInfoCircle },
  warning: { color: 'orange', Icon: IconAlertTriangle },
  blocking: { color: 'red', Icon: IconAlertOctagon },
} as const;

/** One key per alert of a screen: its rule and what it concerns (a stored line, a draft line, or the whole). */
export function alertKey(alert: Pick<TSafetyAlert, 'code' | 'line' | 'prescription_line'>): string {
  return `${alert.code}|${alert.prescription_line ?? alert.line ?? '-'}`;
}

/**
 * The alerts whose written reason a step asks: the server's word (`requires_reason`: a blocking alert without an
 * override of this step — the prescriber's reason does not stand for the pharmacist's or the nurse's).
 */
export function asksReason(alert: Pick<TSafetyAlert, 'requires_reason'>): boolean {
  return alert.requires_reason;
}

/** A reason long enough for the server. */
export function reasonOk(reason: string | undefined): boolean {
  return (reason ?? '').trim().length >= OVERRIDE_REASON_MIN;
}

/** The alerts among `alerts` that `asks` says need a reason and whose reason is missing or too short. */
export function missingReasons(
  alerts: readonly TSafetyAlert[],
  reasons: Readonly<Record<string, string>>,
  asks: (alert: TSafetyAlert) => boolean,
): TSafetyAlert[] {
  return alerts.filter((alert) => asks(alert) && !reasonOk(reasons[alertKey(alert)]));
}

/** The overrides a step sends: one per alert asking a reason, the line named by `lineOf`. */
export function overridesOf<L>(
  alerts: readonly TSafetyAlert[],
  reasons: Readonly<Record<string, string>>,
  asks: (alert: TSafetyAlert) => boolean,
  lineOf: (alert: TSafetyAlert) => L,
): { code: TSafetyAlert['code']; line: L; reason: string }[] {
  return alerts
    .filter((alert) => asks(alert) && reasonOk(reasons[alertKey(alert)]))
    .map((alert) => ({
      code: alert.code,
      line: lineOf(alert),
      reason: (reasons[alertKey(alert)] ?? '').trim(),
    }));
}

/** Adds to `base` the alerts of `extra` it does not have (a refusal may name alerts the screen had not seen). */
export function mergeAlerts(base: readonly TSafetyAlert[], extra: readonly TSafetyAlert[]): TSafetyAlert[] {
  const known = new Set(base.map(alertKey));
  return [...base, ...extra.filter((alert) => !known.has(alertKey(alert)))];
}

function Figures({ alert }: { alert: TSafetyAlert }) {
  const { t } = useTranslation('safety');
  const d = alert.details;
  const lines: string[] = [];
  if (d.value != null && d.limit != null)
    lines.push(
      t(d.per === 'day' ? 'figures.perDay' : 'figures.perDose', {
        value: formatNumber(d.value),
        limit: formatNumber(d.limit),
        unit: d.unit ?? '',
      }),
    );
  if (d.weight_kg != null) lines.push(t('figures.weight', { weight: formatNumber(d.weight_kg) }));
  if (d.allergy)
    lines.push(
      t('figures.allergy', {
        allergy: d.allergy,
        source: d.allergy_source ? t(`allergySource.${d.allergy_source}`) : '—',
      }),
    );
  if (d.other_medication)
    lines.push(
      d.other_prescription
        ? t('figures.otherIn', { name: d.other_medication, number: d.other_prescription })
        : t('figures.other', { name: d.other_medication }),
    );
  if (d.scheduled_at) lines.push(t('figures.scheduled', { time: formatDateTime(d.scheduled_at) }));
  return (
    <>
      {lines.map((line) => (
        <Text key={line} size="xs">
          {line}
        </Text>
      ))}
      {d.advice && (
        <Text size="sm" fw={600}>
          {t('advice', { advice: d.advice })}
        </Text>
      )}
      {d.source && (
        <Text size="xs" c="dimmed">
          {t('source', { source: d.source })}
        </Text>
      )}
    </>
  );
}

export function SafetyAlertCard({
  alert,
  showMedication = false,
  reason,
  onReasonChange,
  reasonLabel,
}: {
  alert: TSafetyAlert;
  /** Names the medicine (lists that mix the lines). */
  showMedication?: boolean;
  /** With `onReasonChange`: the screen asks this alert's written reason to go on. */
  reason?: string;
  onReasonChange?: (reason: string) => void;
  reasonLabel?: string;
}) {
  const { t } = useTranslation('safety');
  const lang = uiLanguage();
  const look = LOOK[alert.severity];
  // Every step's override, oldest first (the prescriber's reason first), else the one the server names.
  const overrides = alert.overrides?.length ? alert.overrides : alert.override ? [alert.override] : [];
  const typed = reason ?? '';
  return (
    <Alert
      color={look.color}
      variant="light"
      icon={<look.Icon size={18} />}
      p="xs"
      role={alert.severity === 'blocking' ? 'alert' : 'status'}
      data-testid="safety-alert"
      data-code={alert.code}
      data-severity={alert.severity}
      style={{ borderLeft: `4px solid var(--mantine-color-${look.color}-6)` }}
      title={
        <Group gap={6} wrap="wrap">
          <Badge color={look.color} variant="filled" size="xs" styles={NEVER_CUT}>
            {t(`severity.${alert.severity}`)}
          </Badge>
          <span>{t(`codes.${alert.code}`)}</span>
          {showMedication && alert.medication && (
            <Text span size="sm" fw={700}>
              · {lang === 'en' ? alert.medication.inn_en : alert.medication.inn_fr}
            </Text>
          )}
        </Group>
      }
    >
      <Stack gap={4}>
        <Text size="sm">{alert.message}</Text>
        <Figures alert={alert} />
        {overrides.map((o) => (
          <Text
            key={o.id}
            size="sm"
            p={6}
            data-testid="safety-override"
            data-stage={o.stage}
            style={{ background: 'var(--mantine-color-default)', borderRadius: 4 }}
          >
            <IconMessage2Check size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
            {t('override', {
              name: o.by.full_name,
              stage: t(`stage.${o.stage}`),
              date: formatDateTime(o.at),
            })}{' '}
            <Text span fs="italic">
              « {o.reason} »
            </Text>
          </Text>
        ))}
        {onReasonChange && (
          <Textarea
            label={reasonLabel ?? t('reason.label')}
            description={t('reason.hint')}
            withAsterisk
            autosize
            minRows={1}
            value={typed}
            onChange={(event) => onReasonChange(event.currentTarget.value)}
            error={
              typed.length > 0 && !reasonOk(typed)
                ? t('reason.tooShort', { min: OVERRIDE_REASON_MIN })
                : undefined
            }
            data-testid="safety-reason"
          />
        )}
      </Stack>
    </Alert>
  );
}

/** Alerts one under the other; `asks` picks those whose reason the screen asks (with `reasons`/`onReason`). */
export function SafetyAlertList({
  alerts,
  showMedication,
  reasons,
  onReason,
  asks,
  reasonLabel,
}: {
  alerts: readonly TSafetyAlert[];
  showMedication?: boolean;
  reasons?: Readonly<Record<string, string>>;
  onReason?: (key: string, reason: string) => void;
  asks?: (alert: TSafetyAlert) => boolean;
  reasonLabel?: string;
}) {
  if (alerts.length === 0) return null;
  return (
    <Stack gap={6} data-testid="safety-alerts">
      {alerts.map((alert) => {
        const key = alertKey(alert);
        const ask = Boolean(onReason && asks?.(alert));
        return (
          <SafetyAlertCard
            key={key}
            alert={alert}
            showMedication={showMedication}
            reason={ask ? (reasons?.[key] ?? '') : undefined}
            onReasonChange={ask ? (reason) => onReason?.(key, reason) : undefined}
            reasonLabel={reasonLabel}
          />
        );
      })}
    </Stack>
  );
}
