/** Tiny DOM helpers: elements are built with textContent, never innerHTML, so names cannot inject markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** A link inside the app, handled by the router without reloading. */
export function appLink(href: string, text: string): HTMLAnchorElement {
  const link = el('a', { href, 'data-link': '' }, text);
  return link;
}
