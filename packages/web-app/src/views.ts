/**
 * The Tour of Heroes screens: dashboard (top heroes and the search box),
 * hero list (add, delete), hero detail (rename). Each renders into `view`
 * and reports failures through `ui.fail`.
 */
import { heroesApi, type Hero } from './api.ts';
import { appLink, el } from './dom.ts';

export interface Ui {
  view: HTMLElement;
  fail(error: unknown): void;
  go(path: string): void;
}

export async function showDashboard(ui: Ui): Promise<void> {
  const top = el('div', { class: 'top-heroes' });
  const results = el('ul', { class: 'search-results', 'aria-label': 'Matching heroes' });
  const search = el('input', { id: 'search-box', type: 'search', autocomplete: 'off' });
  const label = el('label', { for: 'search-box' }, 'Search');
  ui.view.replaceChildren(el('h2', {}, 'Top Heroes'), top, el('section', { class: 'hero-search' }, el('h3', {}, 'Hero Search'), label, search, results));

  // Search as you type: one request 250 ms after the last key, and only the latest answer is shown.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const term = search.value.trim();
      const ticket = ++latest;
      try {
        const found = term ? await heroesApi.search(term) : [];
        if (ticket === latest) results.replaceChildren(...found.map((hero) => el('li', {}, appLink(`/app/heroes/${hero.id}`, hero.name))));
      } catch (error) {
        ui.fail(error);
      }
    }, 250);
  });

  try {
    const heroes = await heroesApi.top(4);
    top.replaceChildren(...heroes.map((hero) => appLink(`/app/heroes/${hero.id}`, hero.name)));
    if (heroes.length === 0) top.append(el('p', {}, 'No heroes yet: add some on the Heroes page.'));
  } catch (error) {
    ui.fail(error);
  }
}

export async function showHeroList(ui: Ui): Promise<void> {
  const list = el('ul', { class: 'heroes', 'aria-label': 'Heroes' });
  const name = el('input', { id: 'new-hero', autocomplete: 'off', maxlength: '100' });
  // Enabled once the list is shown, so an added hero is never wiped by the list arriving after it.
  const add = el('button', { type: 'submit', disabled: '' }, 'Add');
  const form = el('form', { class: 'add-hero' }, el('label', { for: 'new-hero' }, 'Hero name'), name, add);
  ui.view.replaceChildren(el('h2', {}, 'My Heroes'), form, list);

  const row = (hero: Hero) => {
    const remove = el('button', { type: 'button', class: 'delete', 'aria-label': `Delete ${hero.name}` }, 'Delete');
    const item = el('li', {}, el('span', { class: 'badge' }, String(hero.id)), appLink(`/app/heroes/${hero.id}`, hero.name), remove);
    remove.addEventListener('click', async () => {
      try {
        await heroesApi.remove(hero.id);
        item.remove();
      } catch (error) {
        ui.fail(error);
      }
    });
    return item;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = name.value.trim();
    if (!value) return;
    try {
      list.append(row(await heroesApi.add(value)));
      name.value = '';
    } catch (error) {
      ui.fail(error);
    }
  });

  try {
    list.replaceChildren(...(await heroesApi.list()).map(row));
    add.disabled = false;
  } catch (error) {
    ui.fail(error);
  }
}

export async function showHeroDetail(ui: Ui, id: number): Promise<void> {
  try {
    const hero = await heroesApi.get(id);
    const name = el('input', { id: 'hero-name', autocomplete: 'off', maxlength: '100' });
    name.value = hero.name;
    const save = el('button', { type: 'submit' }, 'Save');
    const back = el('button', { type: 'button' }, 'Back');
    const form = el('form', {}, el('p', {}, `id: ${hero.id}`), el('label', { for: 'hero-name' }, 'Hero name'), name, save, back);
    ui.view.replaceChildren(el('h2', {}, `${hero.name.toUpperCase()} Details`), form);
    back.addEventListener('click', () => history.back());
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await heroesApi.rename(hero.id, name.value.trim());
        ui.go('/app/heroes');
      } catch (error) {
        ui.fail(error);
      }
    });
  } catch (error) {
    ui.fail(error);
  }
}
