/**
 * An invoice's lines (issue 21): the act (code and label, never a diagnosis), quantity, unit price, discount (with
 * who and why), total, and its split between the payer and the patient. Removed lines stay, struck through with
 * their reason. On a draft, billing staff remove a line or give a discount.
 */
import type { TInvoiceDetail, TInvoiceLine } from '@greensen/shared/contracts/billing';
import { ActionIcon, Menu, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconDiscount2, IconDots, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { actLabel } from '../../../lib/billing/act-format';
import { uiLanguage } from '../../../lib/i18n';
import { money } from '../../../lib/money';

function Num({ children, removed }: { children: string; removed?: boolean }) {
  return (
    <Table.Td
      ff="monospace"
      style={{
        textAlign: 'right',
        whiteSpace: 'nowrap',
        textDecoration: removed ? 'line-through' : undefined,
      }}
    >
      {children}
    </Table.Td>
  );
}

export function InvoiceLines({
  invoice,
  editable,
  onRemove,
  onDiscount,
}: {
  invoice: TInvoiceDetail;
  /** A draft and the user is billing staff. */
  editable: boolean;
  onRemove: (line: TInvoiceLine) => void;
  onDiscount: (line: TInvoiceLine) => void;
}) {
  const { t } = useTranslation('billing');
  const lang = uiLanguage();
  const c = invoice.currency;
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="xs" fz="sm" data-testid="invoice-lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lines.act')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('lines.quantity')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('lines.unitPrice')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('lines.discount')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('amounts.total')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('amounts.payerShare')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('amounts.patientShare')}</Table.Th>
              {editable && <Table.Th data-no-print />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.lines.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={editable ? 8 : 7}>
                  <Text c="dimmed" size="sm" ta="center" py="sm">
                    {t('lines.none')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {invoice.lines.map((line) => {
              const removed = line.is_removed;
              return (
                <Table.Tr
                  key={line.id}
                  data-testid="invoice-line"
                  data-removed={removed}
                  style={removed ? { opacity: 0.6 } : undefined}
                >
                  <Table.Td>
                    <Text size="sm" td={removed ? 'line-through' : undefined}>
                      {actLabel(line.act, lang)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {line.act.code}
                      {removed &&
                        ` · ${t('lines.removed', { reason: line.removed_reason ?? '', who: line.removed_by?.full_name ?? '' })}`}
                    </Text>
                  </Table.Td>
                  <Num removed={removed}>{String(line.quantity)}</Num>
                  <Num removed={removed}>{money(line.unit_price, c)}</Num>
                  <Table.Td ff="monospace" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {line.discount > 0 ? (
                      <Tooltip
                        label={t('lines.discountBy', {
                          reason: line.discount_reason ?? '',
                          who: line.discount_by?.full_name ?? '',
                        })}
                        multiline
                        w={260}
                      >
                        <Text span size="sm" ff="monospace" c="teal" data-testid="line-discount">
                          −{money(line.discount, c)}
                        </Text>
                      </Tooltip>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Num removed={removed}>{money(line.total, c)}</Num>
                  <Num removed={removed}>{money(line.payer_share, c)}</Num>
                  <Num removed={removed}>{money(line.patient_share, c)}</Num>
                  {editable && (
                    <Table.Td data-no-print>
                      {!removed && (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('lines.actionsFor', { act: actLabel(line.act, lang) })}
                            >
                              <IconDots size={16} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item
                              leftSection={<IconDiscount2 size={14} />}
                              onClick={() => onDiscount(line)}
                            >
                              {t('lines.discountAction')}
                            </Menu.Item>
                            <Menu.Item
                              color="red"
                              leftSection={<IconTrash size={14} />}
                              onClick={() => onRemove(line)}
                            >
                              {t('lines.remove')}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700}>
              <Table.Td colSpan={4}>{t('amounts.totals')}</Table.Td>
              <Num>{money(invoice.total, c)}</Num>
              <Num>{money(invoice.payer_share, c)}</Num>
              <Num>{money(invoice.patient_share, c)}</Num>
              {editable && <Table.Td data-no-print />}
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
