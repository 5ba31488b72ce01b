/** Loading of the third-party captcha script, only when the captcha is enabled (spec §7). */
export const RECAPTCHA_POLL_MS = 500;
export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?render=explicit';

export interface Grecaptcha {
  render: (el: HTMLElement, options: Record<string, unknown>) => number;
  reset: (id?: number) => void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export function injectRecaptchaScript(): void {
  if (document.querySelector(`script[src="${RECAPTCHA_SCRIPT}"]`)) return;
  const script = document.createElement('script');
  script.src = RECAPTCHA_SCRIPT;
  script.async = true;
  script.defer = true;
  document.head.appendChild(script);
}

/** Polls every 500 ms until the captcha API is usable; returns a function that stops polling. */
export function whenRecaptchaReady(callback: (api: Grecaptcha) => void): () => void {
  const check = () => {
    const api = window.grecaptcha;
    if (api && typeof api.render === 'function') {
      clearInterval(timer);
      callback(api);
      return true;
    }
    return false;
  };
  const timer = setInterval(check, RECAPTCHA_POLL_MS);
  check();
  return () => clearInterval(timer);
}
