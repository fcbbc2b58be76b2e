import { describe, expect, it } from 'vitest';
import { bedLabelsFrom, ZBedUpdate, ZRoomCreate, ZWardCreate } from './structure.js';

describe('structure contracts', () => {
  it('reads bed ranges and lists as staff write them', () => {
    expect(bedLabelsFrom('A-D')).toEqual(['A', 'B', 'C', 'D']);
    expect(bedLabelsFrom('a – c')).toEqual(['A', 'B', 'C']);
    expect(bedLabelsFrom('1-4')).toEqual(['1', '2', '3', '4']);
    expect(bedLabelsFrom('A, C, F')).toEqual(['A', 'C', 'F']);
    expect(bedLabelsFrom('D-A')).toBeNull();
    expect(bedLabelsFrom('1-60')).toBeNull();
    expect(bedLabelsFrom('A-4')).toBeNull();
    expect(bedLabelsFrom('  ')).toBeNull();
  });

  it('refuses a room with the same bed twice, a bed out of service without a reason, ages out of order', () => {
    expect(ZRoomCreate.safeParse({ name: '12', beds: ['A', 'a'] }).success).toBe(false);
    expect(ZRoomCreate.safeParse({ name: '12', beds: ['A', 'B'] }).success).toBe(true);
    expect(ZBedUpdate.safeParse({ status: 'out_of_service' }).success).toBe(false);
    expect(ZBedUpdate.safeParse({ status: 'out_of_service', status_reason: 'Travaux' }).success).toBe(true);
    // `occupied` comes with a patient, never from this form.
    expect(ZBedUpdate.safeParse({ status: 'occupied' }).success).toBe(false);
    const ward = { department: '0190f0f0-1111-7222-8333-444455556666', name: 'Pédiatrie', code: 'ped-a' };
    expect(ZWardCreate.parse(ward).code).toBe('PED-A');
    expect(ZWardCreate.safeParse({ ...ward, min_age: 16, max_age: 2 }).success).toBe(false);
    expect(ZWardCreate.safeParse({ ...ward, code: 'pé d' }).success).toBe(false);
  });
});
