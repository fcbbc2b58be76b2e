/**
 * First-expiry-first-out: the lots that may be dispensed (units left, not expired — the server's flag or a past
 * date), nearest expiry first, and the split of a quantity over them in that order.
 */
import type { TLot } from '@greensen/shared/contracts/pharmacy';

/** Today as `YYYY-MM-DD` in the browser's time zone. */
export function today(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function dispensableLots(lots: readonly TLot[], day: string = today()): TLot[] {
  return lots
    .filter((lot) => !lot.expired && lot.expiry_date >= day && lot.on_hand > 0)
    .sort((a, b) => a.expiry_date.localeCompare(b.expiry_date) || a.lot_number.localeCompare(b.lot_number));
}

export type Allocation = Record<string, number>;

/** Takes `quantity` from the lots in their order (as much of each as it holds). */
export function fefoAllocation(lots: readonly TLot[], quantity: number): Allocation {
  const allocation: Allocation = {};
  let left = Math.max(0, quantity);
  for (const lot of lots) {
    const take = Math.min(left, lot.on_hand);
    allocation[lot.id] = take;
    left -= take;
  }
  return allocation;
}

export function allocated(allocation: Allocation): number {
  return Object.values(allocation).reduce((sum, n) => sum + n, 0);
}
