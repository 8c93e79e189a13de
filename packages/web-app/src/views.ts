/**
 * The Tour of Heroes screens: dashboard (top heroes and the search box),
 * hero list (add, delete), hero detail (rename). Each renders into `view`
 * and reports failures through `ui.fail`.
 */
import { ApiError, heroesApi, type Hero } from './api.ts';
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
  const noMatch = el('p', { class: 'no-match', role: 'status' });
  ui.view.replaceChildren(el('h2', {}, 'Top Heroes'), top, el('section', { class: 'hero-search' }, el('h3', {}, 'Hero Search'), label, search, results, noMatch));

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
        if (ticket !== latest) return;
        results.replaceChildren(...found.map((hero) => el('li', {}, appLink(`/app/heroes/${hero.id}`, hero.name))));
        noMatch.textContent = term && found.length === 0 ? `No hero matches “${term}”.` : '';
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
  // Every user's heroes: the collection is shared (docs/heroes-api.md).
  const empty = el('p', { class: 'empty', role: 'status' });
  ui.view.replaceChildren(el('h2', {}, 'Heroes'), form, list, empty);
  const showEmptyState = () => {
    empty.textContent = list.childElementCount === 0 ? 'No heroes yet: add the first one above.' : '';
  };

  // Delete asks once more in place (no modal dialog): "Delete", then "Yes, delete" or "Cancel".
  const row = (hero: Hero) => {
    const remove = el('button', { type: 'button', class: 'delete', 'aria-label': `Delete ${hero.name}` }, 'Delete');
    const confirm = el('button', { type: 'button', class: 'delete', 'aria-label': `Yes, delete ${hero.name}`, hidden: '' }, 'Yes, delete');
    const cancel = el('button', { type: 'button', 'aria-label': `Keep ${hero.name}`, hidden: '' }, 'Cancel');
    const item = el('li', {}, el('span', { class: 'badge' }, String(hero.id)), appLink(`/app/heroes/${hero.id}`, hero.name), remove, confirm, cancel);
    const asking = (on: boolean) => {
      remove.hidden = on;
      confirm.hidden = !on;
      cancel.hidden = !on;
      (on ? confirm : remove).focus();
    };
    remove.addEventListener('click', () => asking(true));
    cancel.addEventListener('click', () => asking(false));
    confirm.addEventListener('click', async () => {
      try {
        await heroesApi.remove(hero.id);
        item.remove();
        showEmptyState();
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          item.remove();
          showEmptyState();
        }
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
      showEmptyState();
    } catch (error) {
      ui.fail(error);
    }
  });

  try {
    list.replaceChildren(...(await heroesApi.list()).map(row));
    showEmptyState();
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
    if (error instanceof ApiError && error.status === 404) return showHeroNotFound(ui, id);
    ui.fail(error);
  }
}

function showHeroNotFound(ui: Ui, id: number): void {
  ui.view.replaceChildren(
    el('h2', {}, 'Hero not found'),
    el('p', {}, `No hero has the id ${id}: it may have been deleted.`),
    appLink('/app/heroes', 'Back to the heroes'),
  );
}
