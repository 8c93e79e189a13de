// Not committed: takes the screenshots for the issue 11 report.
import { launchBrowser } from '@heroes/http-kit/testing';
import { registerUser, signIn, startAppStack, WAIT } from './test/_helpers/web-app.ts';

const stack = await startAppStack();
const browser = await launchBrowser();
try {
  await registerUser(stack.url, 'tour', 'tour password');
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await page.goto(`${stack.url}/app/`);
  await signIn(page, 'tour', 'tour password');
  await page.getByRole('heading', { name: 'Top Heroes' }).waitFor(WAIT);
  await page.getByRole('link', { name: 'Heroes' }).click();
  for (const name of ['Mr. Nice', 'Narco', 'Bombasto', 'Celeritas', 'Magneta', 'RubberMan']) {
    await page.getByLabel('Hero name').fill(name);
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name, exact: true }).waitFor(WAIT);
  }
  await page.screenshot({ path: '/tmp/shots/app-hero-list.png', fullPage: true });
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.locator('.top-heroes a').first().waitFor(WAIT);
  await page.getByLabel('Search').pressSequentially('ma', { delay: 50 });
  await page.getByRole('list', { name: 'Matching heroes' }).getByRole('link', { name: 'Magneta' }).waitFor(WAIT);
  await page.screenshot({ path: '/tmp/shots/app-dashboard-search.png', fullPage: true });
  const docs = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  await docs.goto(`${stack.url}/docs`);
  await docs.waitForLoadState('networkidle');
  await docs.waitForTimeout(2000);
  await docs.screenshot({ path: '/tmp/shots/docs.png' });
  console.log('shots taken');
} finally {
  await browser.close();
  await stack.close();
}
