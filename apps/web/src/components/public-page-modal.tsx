import { Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';

// The public page modal of spec 000 §2: a page's title and HTML content (terms of service, privacy
// policy), the site's own pages (GET /v1/pages/{key}/public?domain=host, spec §7).

export type PublicPageKey = 'terms-of-services' | 'privacy-policy';

type Answer = { data: { data: { key: string; title: string; content: string } } };

/** The page of this site, or null when it has none: a failed load is ignored (spec §8). */
export function usePublicPage(key: PublicPageKey) {
  return useQuery({
    queryKey: ['public-page', key, window.location.host],
    queryFn: async () => {
      try {
        const res = await api<Answer>(`/v1/pages/${key}/public`, {
          query: { domain: window.location.host },
          silent: true,
        });
        const page = res.data.data;
        return page.content.trim() ? page : null;
      } catch {
        return null;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/**
 * The page's title and content. Its HTML is shown in a sandboxed frame, as the training page is: no
 * script of it runs and it cannot reach this page. Closes on Escape.
 */
export function PublicPageModal({ page, onClose }: { page: PublicPageKey | null; onClose: () => void }) {
  const terms = usePublicPage('terms-of-services');
  const privacy = usePublicPage('privacy-policy');
  const data = page === 'terms-of-services' ? terms.data : page === 'privacy-policy' ? privacy.data : null;
  return (
    <Modal
      opened={page !== null && Boolean(data)}
      onClose={onClose}
      size="xl"
      title={<span data-testid="public-page-title">{data?.title}</span>}
      data-testid="public-page-modal"
    >
      {data && (
        <iframe
          title={data.title}
          sandbox=""
          srcDoc={data.content}
          style={{ width: '100%', minHeight: '60vh', border: 0, display: 'block' }}
          data-testid="public-page-content"
        />
      )}
    </Modal>
  );
}
