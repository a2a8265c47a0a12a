import '../test-support/dom.ts';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fillNodes } from './fill-nodes.tsx';

describe('fillNodes', () => {
  it('puts elements where their placeholders are and keeps the rest of the text', () => {
    const { container } = render(<p>{fillNodes('Call {phone} today', { phone: <a href="tel:1">1</a> })}</p>);
    expect(container.innerHTML).toBe('<p>Call <a href="tel:1">1</a> today</p>');
  });

  it('leaves unknown placeholders as they are', () => {
    const { container } = render(<p>{fillNodes('{a} and {b}', { a: 'x' })}</p>);
    expect(container.textContent).toBe('x and {b}');
  });
});
