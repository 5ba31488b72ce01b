/** An egg's admin page; `?nest=` saves looking up its nest (the API addresses eggs within nests). */
export function eggHref(egg: { id: number; nestId: number }, tab: '' | 'variables' | 'script' = ''): string {
  return `/admin/nests/egg/${egg.id}${tab ? `/${tab}` : ''}?nest=${egg.nestId}`;
}
