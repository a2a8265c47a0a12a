import '../../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { ErrorScreen } from './error-screen.tsx';

describe('ErrorScreen (SPEC §2 /error)', () => {
  it('reads errorTitle as its heading and somethingWentWrong', () => {
    renderWithTexts(<ErrorScreen reference={null} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('errorTitle');
    expect(screen.getByText('somethingWentWrong')).toBeTruthy();
    expect(screen.queryByRole('code')).toBeNull();
  });

  it("shows a refused request's reference in the text resource's sentence, as selectable text", () => {
    renderWithTexts(<ErrorScreen reference="7K2M9QXD" />, '/error/7K2M9QXD');
    const main = screen.getByRole('main');
    const reference = screen.getByText('7K2M9QXD');
    expect(reference.tagName).toBe('CODE');
    expect(reference.closest('p')?.textContent).toBe('errorReference 7K2M9QXD');
    // In the page's reading order, right after the message, so it is read out with it.
    expect(main.textContent).toBe('errorTitlesomethingWentWrongerrorReference 7K2M9QXD');
  });

  it.each(['call-0800-123456', '7k2m9qxd', '7K2M9QX', 'ILOU1234'])(
    'shows no text a link could put there: %s',
    (reference) => {
      renderWithTexts(<ErrorScreen reference={reference} />);
      expect(screen.getByRole('main').textContent).toBe('errorTitlesomethingWentWrong');
    },
  );

  it('says the service is temporarily unavailable when sent for an outage, with the reference', () => {
    renderWithTexts(<ErrorScreen reference="7K2M9QXD" />, '/error/7K2M9QXD?reason=unavailable');
    expect(screen.getByRole('main').textContent).toBe(
      'errorTitlesomethingWentWrongtemporarilyUnavailableerrorReference 7K2M9QXD',
    );
  });

  it('says nothing of an outage for any other reason', () => {
    renderWithTexts(<ErrorScreen reference={null} />, '/error?reason=other');
    expect(screen.queryByText('temporarilyUnavailable')).toBeNull();
  });
});
