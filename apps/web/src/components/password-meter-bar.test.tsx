// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PasswordMeterBar } from './password-meter-bar';

afterEach(cleanup);

function fill(password: string) {
  render(<PasswordMeterBar password={password} label="Password strength" valueText="a strength" />);
  const bar = screen.getByTestId('password-meter-bar');
  const meter = screen.getByRole('meter');
  return {
    width: bar.style.width,
    strength: meter.dataset.strength,
    value: meter.getAttribute('aria-valuenow'),
  };
}

describe('PasswordMeterBar', () => {
  it('is empty until something is typed', () => {
    expect(fill('')).toEqual({ width: '0%', strength: 'none', value: '0' });
  });

  it('fills a third for a weak password', () => {
    expect(fill('abc')).toEqual({ width: '33.33%', strength: 'weak', value: '33.33' });
  });

  it('fills two thirds for a medium password', () => {
    expect(fill('abcde1')).toEqual({ width: '66.66%', strength: 'medium', value: '66.66' });
  });

  it('fills completely for a strong password', () => {
    expect(fill('Abcdefg1')).toEqual({ width: '100%', strength: 'strong', value: '100' });
  });
});
