import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BreakableName } from './import-preview';

describe('BreakableName', () => {
  it('lets a file name break after its separators only, its text unchanged', () => {
    const { container } = render(
      <span>
        <BreakableName text="activities/garmin-forerunner_2024.03.fit" />
      </span>,
    );
    expect(container.textContent).toBe('activities/garmin-forerunner_2024.03.fit');
    // After "/", "-", "_", "." and "." : never inside "garmin" or "forerunner".
    expect(container.querySelectorAll('wbr')).toHaveLength(5);
    expect(container.innerHTML).toBe('<span>activities/<wbr>garmin-<wbr>forerunner_<wbr>2024.<wbr>03.<wbr>fit</span>');
  });

  it('leaves a name without separators whole', () => {
    const { container } = render(<BreakableName text="export" />);
    expect(container.innerHTML).toBe('export');
  });
});
