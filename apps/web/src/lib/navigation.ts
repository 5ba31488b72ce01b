/**
 * Full page loads (after login, logout, password change), so the server injects the fresh user
 * into the page. An object so tests can observe it; jsdom cannot navigate.
 */
export const fullPage = {
  navigate(url: string): void {
    window.location.assign(url);
  },
};
