import { useViewportSize } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { sidebarInitiallyOpen, sidebarLinkHeight, sidebarOpenAfterRouteChange } from './layout-rules.ts';

/**
 * Sidebar state of spec 000 §2/§9: starts open when the window is wider than 700 px at first load; after
 * every route change it opens on screens at least 992 px wide and closes otherwise; the burger toggles it.
 * Link height is 40 px when the body (the viewport) is lower than 700 px, else 55 px.
 */
export function useSidebar(pathname: string) {
  const { width, height } = useViewportSize();
  const [opened, setOpened] = useState(() => sidebarInitiallyOpen(window.innerWidth));
  const widthRef = useRef(width);
  widthRef.current = width;
  const lastPath = useRef(pathname);

  useEffect(() => {
    if (lastPath.current === pathname) return;
    lastPath.current = pathname;
    // useViewportSize answers 0 before its first measure.
    setOpened(sidebarOpenAfterRouteChange(widthRef.current || window.innerWidth));
  }, [pathname]);

  const toggle = useCallback(() => setOpened((o) => !o), []);
  return { opened, toggle, linkHeight: sidebarLinkHeight(height || window.innerHeight) };
}
