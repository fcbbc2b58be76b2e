/** The messaging API (issue 23): conversations, messages, read positions, search and the staff picker. */
import type {
  TChatConversationCreate,
  TChatConversationDetail,
  TChatConversationList,
  TChatMessage,
  TChatMessageCreate,
  TChatMessagePage,
  TChatSearchResult,
  TChatStaffList,
} from '@greensen/shared/contracts/chat';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatKeys } from '../../../lib/chat-unread';
import { useAuthStore } from '../../../stores/auth';

export const keys = {
  list: (h: string | null, search: string) => [...chatKeys.all, 'list', h, search] as const,
  detail: (id: string) => [...chatKeys.all, 'detail', id] as const,
  messages: (id: string) => [...chatKeys.all, 'messages', id] as const,
  search: (h: string | null, q: string) => [...chatKeys.all, 'search', h, q] as const,
  staff: (h: string | null, q: string) => [...chatKeys.all, 'staff', h, q] as const,
};

export function useConversations(search: string) {
  const h = useAuthStore((s) => s.currentHospitalId);
  return useQuery({
    queryKey: keys.list(h, search),
    queryFn: () =>
      api.get<TChatConversationList>('chat/conversations/', {
        query: { search: search || undefined, page_size: 100 },
      }),
  });
}

export function useConversation(id: string | null) {
  return useQuery({
    queryKey: keys.detail(id ?? ''),
    queryFn: () => api.get<TChatConversationDetail>(`chat/conversations/${id}/`),
    enabled: !!id,
  });
}

export function useMessages(id: string | null) {
  return useInfiniteQuery({
    queryKey: keys.messages(id ?? ''),
    queryFn: ({ pageParam }) =>
      api.get<TChatMessagePage>(`chat/conversations/${id}/messages/`, {
        query: { cursor: pageParam ?? undefined, limit: 30 },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: !!id,
  });
}

export function postMessage(conversation: string, body: TChatMessageCreate) {
  return api.post<TChatMessage>(`chat/conversations/${conversation}/messages/`, body);
}

export function useMarkRead(conversation: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) =>
      api.post<{ unread_total: number }>(
        `chat/conversations/${conversation}/read/`,
        { message },
        { silent: true },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}

export function useEditMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      api.patch<TChatMessage>(`chat/messages/${id}/`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}

export function useDeleteMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`chat/messages/${id}/`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}

export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TChatConversationCreate) =>
      api.post<TChatConversationDetail>('chat/conversations/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}

export function useMessageSearch(q: string) {
  const h = useAuthStore((s) => s.currentHospitalId);
  return useQuery({
    queryKey: keys.search(h, q),
    queryFn: () => api.get<TChatSearchResult>('chat/search/', { query: { search: q, page_size: 50 } }),
    enabled: q.trim().length >= 2,
  });
}

export function useStaff(search: string, enabled: boolean) {
  const h = useAuthStore((s) => s.currentHospitalId);
  return useQuery({
    queryKey: keys.staff(h, search),
    queryFn: () =>
      api.get<TChatStaffList>('chat/staff/', { query: { search: search || undefined, page_size: 50 } }),
    enabled,
  });
}

/** The API path of a message's attached file (fetched with the token: `useFileBlob`, `downloadFile`). */
export const attachmentPath = (message: string) => `chat/messages/${message}/attachment/`;

/** Sends a file (and the composer's text as its caption) as a message of its own, with a client-made id. */
export function useSendAttachment(conversation: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, body }: { file: File; body: string }) => {
      const form = new FormData();
      form.append('id', crypto.randomUUID());
      if (body) form.append('body', body);
      form.append('file', file);
      return api.post<TChatMessage>(`chat/conversations/${conversation}/attachments/`, form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}

export function useAddMembers(conversation: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (users: string[]) =>
      api.post<TChatConversationDetail>(`chat/conversations/${conversation}/members/`, { users }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}

/** Removes a member of a group, or (the caller's own id) leaves it. */
export function useRemoveMember(conversation: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: string) => api.delete<null>(`chat/conversations/${conversation}/members/${user}/`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.all }),
  });
}
