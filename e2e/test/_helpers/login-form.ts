/**
 * What a browser does with the /auth/code login page, without a browser:
 * find the form, resolve its action against the page URL, keep every input's
 * name and value (hidden fields included), fill in the visible fields and
 * submit it as application/x-www-form-urlencoded, without following the
 * redirect.
 *
 * The parser handles attributes in any order, single, double or no quotes,
 * and HTML character references; it is meant for the server's own simple
 * page, not for arbitrary HTML.
 */
export interface LoginForm {
  action: URL;
  method: string;
  fields: [string, string][];
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  const inner = tag.replace(/^<\s*[a-z]+/i, '').replace(/\/?>$/, '');
  for (const match of inner.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    if (!found.has(name)) found.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return found;
}

/** The first <form> of `html`, its action resolved against `pageUrl`. */
export function parseLoginForm(html: string, pageUrl: URL): LoginForm {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no <form> in the page:\n${html}`);
  const formAttributes = attributes(/<form\b[^>]*>/i.exec(form[0])![0]);
  const fields: [string, string][] = [];
  for (const input of form[1]!.matchAll(/<input\b[^>]*>/gi)) {
    const attrs = attributes(input[0]);
    const name = attrs.get('name');
    const type = (attrs.get('type') ?? 'text').toLowerCase();
    if (!name || attrs.has('disabled') || ['submit', 'button', 'image', 'reset', 'file'].includes(type)) continue;
    if ((type === 'checkbox' || type === 'radio') && !attrs.has('checked')) continue;
    fields.push([name, attrs.get('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '')]);
  }
  return {
    action: new URL(formAttributes.get('action') || pageUrl.href, pageUrl),
    method: (formAttributes.get('method') ?? 'GET').toUpperCase(),
    fields,
  };
}

export interface LoginResult {
  /** The login page as fetched. */
  page: Response;
  form: LoginForm;
  /** The answer to the form submission (redirects not followed). */
  response: Response;
}

/**
 * GETs the authorization URL, fills `values` into the login form (replacing
 * fields of the same name), submits it, and returns the unfollowed answer.
 */
export async function submitLoginForm(authorizationUrl: URL, values: Record<string, string>): Promise<LoginResult> {
  const page = await fetch(authorizationUrl, { redirect: 'manual', headers: { accept: 'text/html' } });
  const html = await page.clone().text();
  if (page.status !== 200) throw new Error(`GET ${authorizationUrl.href} answered ${page.status}:\n${html}`);
  const form = parseLoginForm(html, new URL(page.url || authorizationUrl.href));
  const body = new URLSearchParams();
  const pending = new Map(Object.entries(values));
  for (const [name, value] of form.fields) {
    if (pending.has(name)) {
      body.append(name, pending.get(name)!);
      pending.delete(name);
    } else {
      body.append(name, value);
    }
  }
  for (const [name, value] of pending) body.append(name, value);
  let response: Response;
  if (form.method === 'GET') {
    const target = new URL(form.action);
    target.search = body.toString();
    response = await fetch(target, { redirect: 'manual', headers: { accept: 'text/html' } });
  } else {
    response = await fetch(form.action, {
      method: form.method,
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: body.toString(),
    });
  }
  return { page, form, response };
}
