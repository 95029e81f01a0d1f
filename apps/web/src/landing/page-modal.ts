// The public page modal of the light landing page (spec 000 §2, §7, §8): a page's title and HTML content
// (terms of service, privacy policy), fetched on click (GET /api/v1/pages/{key}/public?domain=host). Its
// HTML shows in a sandboxed frame, as components/public-page-modal.tsx shows it: no script of it runs and it
// cannot reach this page. It opens only when the page has content; a failed load is ignored. Escape closes
// it; the dialog is removed when it closes.

type Answer = { data: { data: { key: string; title: string; content: string } } };

let busy = false;

export async function openPublicPage(key: string): Promise<void> {
  if (busy || !/^[a-z-]+$/.test(key)) return;
  busy = true;
  let page: Answer['data']['data'] | null = null;
  try {
    const res = await fetch(`/api/v1/pages/${key}/public?domain=${encodeURIComponent(location.host)}`, {
      headers: { accept: 'application/json' },
    });
    page = res.ok ? ((await res.json()) as Answer).data.data : null;
  } catch {
    page = null;
  } finally {
    busy = false;
  }
  if (!page?.content.trim()) return;

  const dialog = document.createElement('dialog');
  dialog.className = 'wide';
  dialog.dataset.testid = 'public-page-modal';
  dialog.setAttribute('aria-labelledby', 'public-page-title');
  const head = document.createElement('div');
  head.className = 'dlg-head';
  const title = document.createElement('h2');
  title.id = 'public-page-title';
  title.dataset.testid = 'public-page-title';
  title.textContent = page.title;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'x';
  close.setAttribute('aria-label', 'Close');
  close.textContent = '×';
  close.addEventListener('click', () => dialog.close());
  head.append(title, close);
  const body = document.createElement('div');
  body.className = 'dlg-body';
  const frame = document.createElement('iframe');
  frame.title = page.title;
  frame.setAttribute('sandbox', '');
  frame.srcdoc = page.content;
  frame.className = 'frame';
  frame.dataset.testid = 'public-page-content';
  body.append(frame);
  dialog.append(head, body);
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
