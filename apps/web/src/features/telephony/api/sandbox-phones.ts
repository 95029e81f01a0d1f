import type { TSandboxFailingNumber, TSandboxPhone } from '@stn/contracts/telephony';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The Sandbox Phones calls (ADR 030): the simulated phones of the carrier sandbox, polled twice a second
// while the screen is open, the actions a person takes on them, and the visitor's callback request.

export const SANDBOX_PHONES_PATH = '/v1/sandbox/phones';
/** How often the screen asks for the phones: a call's steps take a few hundred milliseconds each. */
export const POLL_MS = 500;

type Data<T> = { data: T };

/** The phone's path: E.164 with its '+' encoded. */
const phonePath = (number: string, action: string) =>
  `${SANDBOX_PHONES_PATH}/${encodeURIComponent(number)}/${action}`;

export function useSandboxPhones() {
  return useQuery({
    queryKey: keys.sandboxPhones.all,
    queryFn: async () => (await api<Data<TSandboxPhone[]>>(SANDBOX_PHONES_PATH, { silent: true })).data,
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    // A stale list would show a call that has ended: always the last answer, never an old cache.
    staleTime: 0,
    gcTime: 0,
  });
}

export type PhoneAction = 'answer' | 'voicemail' | 'hangup' | 'reject';

type ActionInput =
  | { number: string; action: PhoneAction }
  | { number: string; action: 'press'; digits: string };

/** One action on one phone; the list is refreshed at once after it, whatever the answer. */
export function usePhoneAction() {
  return useMutation({
    mutationFn: (input: ActionInput) =>
      api<Data<TSandboxPhone>>(phonePath(input.number, input.action), {
        method: 'POST',
        body: input.action === 'press' ? { digits: input.digits } : {},
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.sandboxPhones.all }),
  });
}

/** The phone calls or texts one of the business's numbers (an inbound call, an inbound text). */
export function useFromPhone() {
  return useMutation({
    mutationFn: (input: { number: string; to: string; body?: string }) =>
      api<Data<TSandboxPhone>>(phonePath(input.number, input.body === undefined ? 'dial' : 'texts'), {
        method: 'POST',
        body: input.body === undefined ? { to: input.to } : { to: input.to, body: input.body },
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.sandboxPhones.all }),
  });
}

export type CallbackAnswer = {
  success: true;
  data: {
    status: 'calling' | 'closed';
    call_id: number | null;
    callback_seconds: number;
    next_slots: string[];
  };
};

/** The visitor asks for a callback from an install, as the widget would. */
export function useRequestCallback() {
  return useMutation({
    mutationFn: (body: { install_id: number; phone: string; name?: string }) =>
      // Silent: the form shows a refusal itself, next to the field or under the button.
      api<CallbackAnswer>('/v1/sandbox/callback', { method: 'POST', body, silent: true }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.sandboxPhones.all }),
  });
}

const FAILING_PATH = '/v1/sandbox/failing-numbers';
const failingKey = [...keys.sandboxPhones.all, 'failing'] as const;

/** The phones the agency's sandbox texts fail to, with each one's carrier error code. */
export function useFailingNumbers() {
  return useQuery({
    queryKey: failingKey,
    queryFn: async () => (await api<Data<TSandboxFailingNumber[]>>(FAILING_PATH, { silent: true })).data,
  });
}

/** Make texts to a phone fail with a code (or, code null, work again). */
export function useFailNumber() {
  return useMutation({
    mutationFn: (input: { phone: string; code: number | null }) =>
      api<Data<TSandboxFailingNumber[]>>(`${FAILING_PATH}/${encodeURIComponent(input.phone)}`, {
        method: input.code === null ? 'DELETE' : 'PUT',
        ...(input.code === null ? {} : { body: { code: input.code } }),
        silent: true,
      }),
    onSuccess: (res) => queryClient.setQueryData(failingKey, res.data),
  });
}

// The installs picker (the chosen install's staff phones come with the sandbox's phones).
export { useInstallOptions } from '../../../lib/pickers.ts';

export type SandboxClock = { manual: boolean; now: string };

/** The sandbox's time; a manual clock (SANDBOX_CLOCK=manual, ADR 073) can be moved on from the screen. */
export function useSandboxClock() {
  return useQuery({
    queryKey: [...keys.sandboxPhones.all, 'clock'],
    queryFn: async () => (await api<Data<SandboxClock>>('/v1/sandbox/clock', { silent: true })).data,
    // A real clock is not shown: asked once. A manual one is followed like the phones.
    refetchInterval: (query) => (query.state.data?.manual ? POLL_MS : false),
    refetchIntervalInBackground: false,
  });
}

/** Moves a manual clock on: the calls, ring timeouts and automation waits due meanwhile happen. */
export function useAdvanceClock() {
  return useMutation({
    mutationFn: (seconds: number) =>
      api<Data<SandboxClock>>('/v1/sandbox/clock/advance', { method: 'POST', body: { seconds } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.sandboxPhones.all }),
  });
}
