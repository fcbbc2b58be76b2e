/**
 * The stock of a pharmacy (issue 18): stock items per presentation (GET /api/pharmacy/stock/), the lots of a
 * presentation (GET lots/), the ledger (GET movements/), the alerts (GET alerts/), and the writes of its members
 * — a receipt from a supplier, a lot's correction (adjustment, inventory count, expiry write-off), a transfer to
 * another pharmacy, a reorder level. Every write refreshes the stock, the prescriptions and the reference.
 */
import type {
  MovementKind,
  TLot,
  TLotCorrection,
  TMovement,
  TReceiptCreate,
  TStockItem,
  ZReceiptResult,
  ZReorderLevel,
  ZStockAlerts,
  ZStockTransferCreate,
  ZStockTransferResult,
} from '@greensen/shared/contracts/pharmacy';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { MEDICATIONS_KEY } from '../../../lib/clinical/api/medications';
import { invalidatePrescriptions, PHARMACY_STOCK_KEY } from '../../../lib/clinical/api/prescriptions';
import { useAuthStore } from '../../../stores/auth';

export type StockAlert = NonNullable<TStockItem['flags'][number]>;
export type TStockAlerts = z.infer<typeof ZStockAlerts>;

function useStockQuery<T>(name: string, params: object, path: string, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...PHARMACY_STOCK_KEY, hospitalId, name, params] as const,
    queryFn: ({ signal }) =>
      api.get<T>(path, { query: params as Record<string, string | number | undefined>, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export interface StockFilters {
  pharmacy: string;
  search?: string;
  alert?: StockAlert | null;
  page: number;
  pageSize: number;
}

export const useStock = (f: StockFilters) =>
  useStockQuery<Page<TStockItem>>(
    'stock',
    {
      pharmacy: f.pharmacy,
      search: f.search?.trim() || undefined,
      alert: f.alert ?? undefined,
      page: f.page,
      page_size: f.pageSize,
    },
    'pharmacy/stock/',
    Boolean(f.pharmacy),
  );

/** The lots of a presentation in a pharmacy: with units left (expired ones included, flagged), or `all`. */
export function lotsQueryOptions(
  hospitalId: string | null,
  pharmacy: string | null,
  presentation: string | null,
  all = false,
) {
  const params = { pharmacy, presentation, available: all ? 'false' : 'true', page_size: 100 };
  return queryOptions({
    queryKey: [...PHARMACY_STOCK_KEY, hospitalId, 'lots', params] as const,
    queryFn: ({ signal }) => api.get<Page<TLot>>('pharmacy/lots/', { query: params, signal }),
    enabled: Boolean(pharmacy) && Boolean(presentation),
  });
}

export function useLots(pharmacy: string | null, presentation: string | null, all = false) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(lotsQueryOptions(hospitalId, pharmacy, presentation, all));
}

export interface MovementFilters {
  pharmacy: string;
  kind?: MovementKind | null;
  presentation?: string | null;
  lot?: string | null;
  page: number;
  pageSize: number;
}

export const useMovements = (f: MovementFilters) =>
  useStockQuery<Page<TMovement>>(
    'movements',
    {
      pharmacy: f.pharmacy,
      kind: f.kind ?? undefined,
      presentation: f.presentation ?? undefined,
      lot: f.lot ?? undefined,
      page: f.page,
      page_size: f.pageSize,
    },
    'pharmacy/movements/',
    Boolean(f.pharmacy),
  );

export const useStockAlerts = (pharmacy: string) =>
  useStockQuery<TStockAlerts>('alerts', { pharmacy }, 'pharmacy/alerts/', Boolean(pharmacy));

/** A stock write: refreshes the stock, the ledger, the alerts, the prescriptions and the reference. */
function useStockWrite<Input, Output>(send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () =>
      Promise.all([
        invalidatePrescriptions(queryClient),
        queryClient.invalidateQueries({ queryKey: MEDICATIONS_KEY }),
      ]),
  });
}

export const useReceipt = () =>
  useStockWrite((body: TReceiptCreate) =>
    api.post<z.infer<typeof ZReceiptResult>>('pharmacy/receipts/', body),
  );

export const useLotCorrection = () =>
  useStockWrite(({ lot, body }: { lot: string; body: TLotCorrection }) =>
    api.post<TLot>(`pharmacy/lots/${lot}/corrections/`, body),
  );

export const useStockTransfer = () =>
  useStockWrite((body: z.input<typeof ZStockTransferCreate>) =>
    api.post<z.infer<typeof ZStockTransferResult>>('pharmacy/stock-transfers/', body),
  );

export const useReorderLevel = () =>
  useStockWrite((body: z.input<typeof ZReorderLevel>) =>
    api.put<TStockItem>('pharmacy/reorder-levels/', body),
  );
