/** Session lock calls: PIN setup/verify/remove and password unlock. */
import { api } from '../../../lib/api-client';

export function setupPin(input: { pin: string; password: string }): Promise<unknown> {
  return api.post('pin/setup/', input);
}

/** 200 {ok:true} | 400 {pin:[…], attempts_left} | 401 after 5 failures (the user must be signed out). */
export function verifyPin(pin: string): Promise<{ ok: boolean }> {
  return api.post('pin/verify/', { pin });
}

export function removePin(): Promise<unknown> {
  return api.delete('pin/');
}

export function unlockWithPassword(password: string): Promise<unknown> {
  return api.post('unlock/', { password });
}
