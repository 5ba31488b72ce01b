type Gtag = (...args: unknown[]) => void;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

/**
 * Records a page view with Google Analytics when (and only when) a measurement id is configured
 * (spec §2). The tag script is added on the first call.
 */
export function trackPageView(measurementId: string | undefined, path: string): boolean {
  if (!measurementId) return false;
  if (!window.gtag) {
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag(...args: unknown[]) {
      window.dataLayer!.push(args);
    };
    window.gtag('js', new Date());
    const script = document.createElement('script');
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
    document.head.appendChild(script);
  }
  window.gtag('config', measurementId, { page_path: path });
  return true;
}
