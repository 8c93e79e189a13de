/**
 * The app shell: routes /app/... paths to screens, shows the signed-out
 * screen with the "Sign in" button when there is no valid session, and
 * handles the sign-in callback (docs/web-app.md).
 */
import './styles.css';
import { SessionExpiredError } from './api.ts';
import { el } from './dom.ts';
import { completeSignIn, signIn, signOut, SignInError } from './oauth.ts';
import { loadSession } from './session.ts';
import { showDashboard, showHeroDetail, showHeroList, type Ui } from './views.ts';

const view = document.getElementById('view')!;
const nav = document.getElementById('nav')!;
const message = document.getElementById('message')!;

function say(text: string | undefined): void {
  message.textContent = text ?? '';
  message.hidden = !text;
}

const ui: Ui = {
  view,
  fail(error) {
    if (error instanceof SessionExpiredError) return showSignedOut(error.message);
    say(error instanceof Error ? error.message : String(error));
  },
  go(path) {
    history.pushState(null, '', path);
    void route();
  },
};

function showSignedOut(text?: string): void {
  nav.hidden = true;
  say(text);
  const button = el('button', { type: 'button', class: 'sign-in' }, 'Sign in');
  const returnTo = location.pathname.startsWith('/app/callback') ? '/app/dashboard' : location.pathname;
  button.addEventListener('click', () => void signIn(returnTo));
  view.replaceChildren(el('p', {}, 'Sign in to see and manage your heroes.'), button);
}

async function route(): Promise<void> {
  const path = location.pathname;
  if (path === '/app/callback') {
    try {
      const next = await completeSignIn(new URL(location.href));
      history.replaceState(null, '', next);
    } catch (error) {
      history.replaceState(null, '', '/app/');
      return showSignedOut(error instanceof SignInError ? error.message : String(error));
    }
    return route();
  }
  const session = loadSession();
  if (!session) return showSignedOut();
  if (session.expiresAt <= Date.now()) return showSignedOut(new SessionExpiredError().message);
  nav.hidden = false;
  say(undefined);
  const detail = /^\/app\/heroes\/(\d+)$/.exec(path);
  if (detail) return showHeroDetail(ui, Number(detail[1]));
  if (path === '/app/heroes') return showHeroList(ui);
  if (path !== '/app/dashboard') history.replaceState(null, '', '/app/dashboard');
  return showDashboard(ui);
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a[data-link]');
  if (!link || event.defaultPrevented || (event as MouseEvent).button !== 0) return;
  event.preventDefault();
  ui.go(link.getAttribute('href')!);
});
document.getElementById('sign-out')!.addEventListener('click', async () => {
  await signOut(loadSession());
  history.pushState(null, '', '/app/');
  showSignedOut('You are signed out.');
});
window.addEventListener('popstate', () => void route());
void route();
