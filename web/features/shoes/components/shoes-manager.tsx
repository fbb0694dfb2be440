import { useState } from 'react';
import { Link } from 'react-router';
import type { Shoe } from '../../../../core/shoes.js';
import type { Units } from '../../../../core/units.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { QueryList } from '../../../components/query-list';
import { ProgressBar } from '../../../components/progress-bar';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import shoesTexts from 'virtual:i18n/shoes';
import { splitAround, t, useT } from '../../../i18n/runtime';
import { useShoes } from '../api/get-shoes';
import { useDeleteShoe, useSaveShoe } from '../api/save-shoe';
import { formatShoeDistance } from './shoe-format';
import { ShoeForm } from './shoe-form';

/** In use first (the default at the top), then retired; oldest first within each. */
function byUse(a: Shoe, b: Shoe): number {
  return Number(a.retired) - Number(b.retired) || Number(b.is_default) - Number(a.is_default) || a.id - b.id;
}

/** A shoe's distance as a bar against its limit, red once past it; what it had run before it was tracked, if anything. */
export function ShoeDistanceBar({ shoe, units }: { shoe: Shoe; units: Units }) {
  useT(shoesTexts);
  const distanceUnit = useDisplay().labels.distance;
  const text = t('shoes.distance.ofLimit', {
    distance: formatShoeDistance(shoe.distance, units, distanceUnit),
    limit: formatShoeDistance(shoe.limit_km, units, distanceUnit),
  });
  const before =
    shoe.start_km > 0
      ? ` ${t('shoes.distance.before', { distance: formatShoeDistance(shoe.start_km, units, distanceUnit) })}`
      : '';
  return (
    <>
      <ProgressBar
        value={shoe.distance}
        max={shoe.limit_km}
        label={t('shoes.distance.label', { name: shoe.name })}
        valueText={text}
        tone={shoe.over_limit ? 'danger' : shoe.retired ? 'secondary' : 'primary'}
      />
      <div className="small text-body-secondary mt-1">
        {text}
        {before} · {t('shoes.distance.runs', { count: shoe.runs })}
      </div>
    </>
  );
}

/** The badges of a shoe's state. */
function ShoeBadges({ shoe }: { shoe: Shoe }) {
  useT(shoesTexts);
  return (
    <>
      {shoe.is_default ? <span className="badge text-bg-primary">{t('shoes.badge.default')}</span> : null}
      {shoe.retired ? <span className="badge text-bg-secondary">{t('shoes.badge.retired')}</span> : null}
      {shoe.over_limit ? <span className="badge text-bg-danger">{t('shoes.badge.overLimit')}</span> : null}
    </>
  );
}

/** A button's text with the shoe's name inside, visually hidden, where the language puts it. */
function WithName({ text, name }: { text: [string, string]; name: string }) {
  return (
    <>
      {text[0]}
      <span className="visually-hidden" translate="no">
        {name}
      </span>
      {text[1]}
    </>
  );
}

function ShoeItem({ shoe, units }: { shoe: Shoe; units: Units }) {
  useT(shoesTexts);
  const [editing, setEditing] = useState(false);
  const save = useSaveShoe({ onSuccess: () => setEditing(false) });
  const remove = useDeleteShoe();
  const { confirm, dialog } = useConfirm();
  const change = (input: Parameters<typeof save.mutate>[0], message: string) =>
    save.mutate({ id: shoe.id, ...input }, { onSuccess: () => notify(message, 'success') });

  return (
    <li className="list-group-item py-3">
      <div className="d-flex flex-wrap align-items-baseline gap-2 mb-2">
        <h3 className="h6 mb-0">
          <Link to={`/shoes/${shoe.id}`} translate="no">
            {shoe.name}
          </Link>
        </h3>
        {shoe.brand ? (
          <span className="text-body-secondary small" translate="no">
            {shoe.brand}
          </span>
        ) : null}
        <ShoeBadges shoe={shoe} />
      </div>
      <ShoeDistanceBar shoe={shoe} units={units} />
      {editing ? (
        <div className="mt-3">
          <ShoeForm
            shoe={shoe}
            units={units}
            submitLabel={t('shoes.item.save')}
            pending={save.isPending}
            serverErrors={fieldErrorsOf(save.error)}
            onSubmit={(input) => change(input, t('shoes.updated'))}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <div className="d-flex flex-wrap gap-2 mt-2">
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setEditing(true)}>
            <WithName text={splitAround(t, 'shoes.item.edit', 'name')} name={shoe.name} />
          </button>
          {!shoe.retired && !shoe.is_default ? (
            <button
              type="button"
              className="btn btn-sm btn-outline-primary"
              disabled={save.isPending}
              onClick={() => change({ is_default: true }, t('shoes.madeDefault', { name: shoe.name }))}
            >
              <WithName text={splitAround(t, 'shoes.item.makeDefault', 'name')} name={shoe.name} />
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            disabled={save.isPending}
            onClick={() =>
              change(
                { retired: !shoe.retired },
                shoe.retired ? t('shoes.unretired', { name: shoe.name }) : t('shoes.retired', { name: shoe.name }),
              )
            }
          >
            <WithName
              text={
                shoe.retired
                  ? splitAround(t, 'shoes.item.unretire', 'name')
                  : splitAround(t, 'shoes.item.retire', 'name')
              }
              name={shoe.name}
            />
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (await confirm(t('shoes.deleteConfirm', { name: shoe.name }))) {
                remove.mutate(shoe.id, { onSuccess: () => notify(t('shoes.deleted'), 'success') });
              }
            }}
          >
            <WithName text={splitAround(t, 'shoes.item.delete', 'name')} name={shoe.name} />
          </button>
        </div>
      )}
      {dialog}
    </li>
  );
}

/** A shoe's name, brand and state, and its distance against its limit (the top of its own page). */
export function ShoeSummary({ shoe, units }: { shoe: Shoe; units: Units }) {
  useT(shoesTexts);
  return (
    <section className="card mb-4" aria-label={t('shoes.summary.label', { name: shoe.name })}>
      <div className="card-body">
        <div className="d-flex flex-wrap align-items-baseline gap-2 mb-2">
          {shoe.brand ? (
            <span className="text-body-secondary" translate="no">
              {shoe.brand}
            </span>
          ) : null}
          <ShoeBadges shoe={shoe} />
        </div>
        <ShoeDistanceBar shoe={shoe} units={units} />
      </div>
    </section>
  );
}

/** The shoes page: every shoe with its distance against its limit, and a form to add one. */
export function ShoesManager({ units }: { units: Units }) {
  useT(shoesTexts);
  const shoes = useShoes();
  const [generation, setGeneration] = useState(0);
  const create = useSaveShoe({
    onSuccess: () => {
      notify(t('shoes.added'), 'success');
      setGeneration((value) => value + 1);
    },
  });
  const list = [...(shoes.data ?? [])].sort(byUse);
  return (
    <>
      <Panel title={t('shoes.list.title')} flush>
        <QueryList
          items={shoes.data ? list : undefined}
          isError={shoes.isError}
          error={t('shoes.loadError')}
          empty={t('shoes.list.empty')}
        >
          {(shoe) => <ShoeItem key={shoe.id} shoe={shoe} units={units} />}
        </QueryList>
      </Panel>
      <Panel title={t('shoes.add.title')}>
        <ShoeForm
          key={generation}
          units={units}
          submitLabel={t('shoes.add.submit')}
          pending={create.isPending}
          serverErrors={fieldErrorsOf(create.error)}
          onSubmit={(input) => create.mutate(input)}
        />
      </Panel>
    </>
  );
}
