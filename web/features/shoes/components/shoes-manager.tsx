import { useState } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../../core/format.js';
import type { Shoe } from '../../../../core/shoes.js';
import type { Units } from '../../../../core/units.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { QueryList } from '../../../components/query-list';
import { ProgressBar } from '../../../components/progress-bar';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
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
  const text = `${formatShoeDistance(shoe.distance, units)} of ${formatShoeDistance(shoe.limit_km, units)}`;
  const before = shoe.start_km > 0 ? ` (${formatShoeDistance(shoe.start_km, units)} before tracking)` : '';
  return (
    <>
      <ProgressBar
        value={shoe.distance}
        max={shoe.limit_km}
        label={`${shoe.name} distance`}
        valueText={text}
        tone={shoe.over_limit ? 'danger' : shoe.retired ? 'secondary' : 'primary'}
      />
      <div className="small text-body-secondary mt-1">
        {text}
        {before} · {formatCount(shoe.runs, 'run')}
      </div>
    </>
  );
}

function ShoeItem({ shoe, units }: { shoe: Shoe; units: Units }) {
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
          <Link to={`/shoes/${shoe.id}`}>{shoe.name}</Link>
        </h3>
        {shoe.brand ? <span className="text-body-secondary small">{shoe.brand}</span> : null}
        {shoe.is_default ? <span className="badge text-bg-primary">Default</span> : null}
        {shoe.retired ? <span className="badge text-bg-secondary">Retired</span> : null}
        {shoe.over_limit ? <span className="badge text-bg-danger">Over limit</span> : null}
      </div>
      <ShoeDistanceBar shoe={shoe} units={units} />
      {editing ? (
        <div className="mt-3">
          <ShoeForm
            shoe={shoe}
            units={units}
            submitLabel="Save"
            pending={save.isPending}
            serverErrors={fieldErrorsOf(save.error)}
            onSubmit={(input) => change(input, 'Shoe was updated!')}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <div className="d-flex flex-wrap gap-2 mt-2">
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setEditing(true)}>
            Edit <span className="visually-hidden">{shoe.name}</span>
          </button>
          {!shoe.retired && !shoe.is_default ? (
            <button
              type="button"
              className="btn btn-sm btn-outline-primary"
              disabled={save.isPending}
              onClick={() => change({ is_default: true }, `${shoe.name} is now your default shoe.`)}
            >
              Make default <span className="visually-hidden">{shoe.name}</span>
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            disabled={save.isPending}
            onClick={() =>
              change(
                { retired: !shoe.retired },
                shoe.retired ? `${shoe.name} is back in use.` : `${shoe.name} was retired.`,
              )
            }
          >
            {shoe.retired ? 'Unretire' : 'Retire'} <span className="visually-hidden">{shoe.name}</span>
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (await confirm(`Delete ${shoe.name}? Its runs stay, without a shoe.`)) {
                remove.mutate(shoe.id, { onSuccess: () => notify('Shoe was deleted.', 'success') });
              }
            }}
          >
            Delete <span className="visually-hidden">{shoe.name}</span>
          </button>
        </div>
      )}
      {dialog}
    </li>
  );
}

/** A shoe's name, brand and state, and its distance against its limit (the top of its own page). */
export function ShoeSummary({ shoe, units }: { shoe: Shoe; units: Units }) {
  return (
    <section className="card mb-4" aria-label={`${shoe.name}: distance`}>
      <div className="card-body">
        <div className="d-flex flex-wrap align-items-baseline gap-2 mb-2">
          {shoe.brand ? <span className="text-body-secondary">{shoe.brand}</span> : null}
          {shoe.is_default ? <span className="badge text-bg-primary">Default</span> : null}
          {shoe.retired ? <span className="badge text-bg-secondary">Retired</span> : null}
          {shoe.over_limit ? <span className="badge text-bg-danger">Over limit</span> : null}
        </div>
        <ShoeDistanceBar shoe={shoe} units={units} />
      </div>
    </section>
  );
}

/** The shoes page: every shoe with its distance against its limit, and a form to add one. */
export function ShoesManager({ units }: { units: Units }) {
  const shoes = useShoes();
  const [generation, setGeneration] = useState(0);
  const create = useSaveShoe({
    onSuccess: () => {
      notify('Shoe was added!', 'success');
      setGeneration((value) => value + 1);
    },
  });
  const list = [...(shoes.data ?? [])].sort(byUse);
  return (
    <>
      <Panel title="My shoes" flush>
        <QueryList
          items={shoes.data ? list : undefined}
          isError={shoes.isError}
          noun="shoes"
          empty="No shoes yet. Add your first pair below."
        >
          {(shoe) => <ShoeItem key={shoe.id} shoe={shoe} units={units} />}
        </QueryList>
      </Panel>
      <Panel title="Add a shoe">
        <ShoeForm
          key={generation}
          units={units}
          submitLabel="Add shoe"
          pending={create.isPending}
          serverErrors={fieldErrorsOf(create.error)}
          onSubmit={(input) => create.mutate(input)}
        />
      </Panel>
    </>
  );
}
