/**
 * The HTML of /auth/code, a small accessible login form and an error page: no script or external asset, every value
 * escaped, OAuth parameters in hidden fields, the password never pre-filled; the page shows only its own words
 * (registration outcomes are codes of a fixed list, never a query value).
 */
const STYLE = `body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem}label{display:block;margin-top:1rem;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;font-size:1rem}
button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem}.error{color:#a40000;border:1px solid #a40000;padding:.5rem}
.notice{color:#1d5c2e;border:1px solid #1d5c2e;padding:.5rem}.other{margin-top:2rem}.hint{font-size:.9rem;color:#444;margin:.25rem 0 0}`;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface LoginPageOptions {
  action: string;
  params: [string, string][];
  clientId: string;
  username?: string | undefined;
  error?: string | undefined;
  /** A confirmation shown above the form (an account was just created). */
  notice?: string | undefined;
  /** Where "Create account" leads (this request with prompt=create). */
  createAccountHref?: string | undefined;
}

export function renderLoginPage({ action, params, clientId, username, error, notice, createAccountHref }: LoginPageOptions): string {
  const hidden = params.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n    ');
  const alert = error ? `<p class="error" role="alert" id="login-error">${escapeHtml(error)}</p>` : '';
  const told = notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '';
  const create = createAccountHref ? `\n  <p class="other">No account yet? <a href="${escapeHtml(createAccountHref)}">Create account</a></p>` : '';
  return page('Sign in', `<h1>Sign in</h1>
  <p>to continue to <strong>${escapeHtml(clientId)}</strong></p>
  ${told}${alert}
  <form method="POST" action="${escapeHtml(action)}"${error ? ' aria-describedby="login-error"' : ''}>
    ${hidden}
    <label for="username">Username</label>
    <input type="text" id="username" name="username" autocomplete="username" required autofocus value="${escapeHtml(username ?? '')}">
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>${create}`);
}

export interface RegistrationPageOptions {
  /** The edge's POST /register, with `return_to` (the login page) in its query. */
  action: string;
  clientId: string;
  /** Back to the login form. */
  signInHref: string;
  error?: string | undefined;
  /** What the user typed, when the form comes back after a refusal (from the POST body, never from a query). */
  username?: string | undefined;
}

/**
 * The "Create account" form (OpenID Connect prompt=create): posts to
 * /register, which sends the browser back to the login form, or answers
 * a refusal with this form again (the username kept).
 */
export function renderRegistrationPage({ action, clientId, signInHref, error, username }: RegistrationPageOptions): string {
  const alert = error ? `<p class="error" role="alert" id="register-error">${escapeHtml(error)}</p>` : '';
  return page('Create account', `<h1>Create account</h1>
  <p>to continue to <strong>${escapeHtml(clientId)}</strong></p>
  ${alert}
  <form method="POST" action="${escapeHtml(action)}"${error ? ' aria-describedby="register-error"' : ''}>
    <label for="username">Username</label>
    <input type="text" id="username" name="username" autocomplete="username" required autofocus value="${escapeHtml(username ?? '')}">
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="new-password" required minlength="8" aria-describedby="password-rule">
    <p class="hint" id="password-rule">At least 8 characters, any you like; not a common password and not your username.</p>
    <button type="submit">Create account</button>
  </form>
  <p class="other">Have an account? <a href="${escapeHtml(signInHref)}">Sign in</a></p>`);
}

export function renderErrorPage(error: string, description: string): string {
  return page('Error', `<h1>Error</h1>
  <p role="alert"><strong>${escapeHtml(error)}</strong>: ${escapeHtml(description)}</p>`);
}

function page(title: string, main: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  ${main}
</main>
</body>
</html>
`;
}
