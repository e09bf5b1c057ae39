import { describe, expect, it } from 'vitest';
import { nicknameKey } from './nickname-key';

const same = (a: string, b: string) => expect(nicknameKey(a), `${a} / ${b}`).toBe(nicknameKey(b));

describe('nicknameKey', () => {
  it('folds compatibility forms and case', () => {
    same('ＯＬＧＡ', 'olga');
    same('𝐀𝐥𝐢𝐜𝐞', 'alice');
    same('ALICE', 'alice');
    same('Straße', 'STRASSE');
    same('ΣΟΦΙΑΣ', 'σοφιας');
  });

  it('ignores every kind of whitespace and invisible character', () => {
    same('a lice', 'alice');
    same(' Al\u00A0ice\u3000', 'alice');
    same('A\u200Blice', 'alice');
    same('\u202Eali\u2066ce\u200D\uFEFF', 'alice');
    same('al\u00ADice', 'alice');
    same('ali\u2800ce\u3164', 'alice');
    same('Olga  Petrova', 'olga petrova');
  });

  it('reads Cyrillic and Greek look-alikes as the Latin letters they pass for', () => {
    same('\u0430lice', 'alice'); // Cyrillic а
    same('\u0410LICE', 'alice'); // Cyrillic А
    same('ali\u0441\u0435', 'alice'); // Cyrillic с, е
    same('\u039Flga', 'Olga'); // Greek Ο
    same('\u03BFlga', 'olga'); // Greek ο
    same('\u0392\u039F\u0392', 'bob'); // Greek Β, Ο
    same('\u0397ans', 'hans'); // Greek Η reads as H…
    same('\u03B7ick', 'nick'); // …and η as n
  });

  it('drops accents on Latin letters and makes shapes a reader cannot tell apart one', () => {
    same('álîcë', 'alice');
    same('a\u0332lice', 'alice');
    same('AIice', 'alice'); // capital I for l
    same('a1ice', 'alice');
    same('0lga', 'olga');
    same('rnax', 'max');
    same('vvill', 'will');
    same('łukasz', 'lukasz');
  });

  it('keeps different names apart, and the marks of other scripts', () => {
    expect(nicknameKey('alice')).not.toBe(nicknameKey('alina'));
    expect(nicknameKey('Bob')).not.toBe(nicknameKey('Rob'));
    expect(nicknameKey('Олег')).not.toBe(nicknameKey('Oleg'));
    expect(nicknameKey('Гоb')).not.toBe(nicknameKey('rob'));
    expect(nicknameKey('が')).not.toBe(nicknameKey('か'));
    expect(nicknameKey('김')).toBe(nicknameKey('김'.normalize('NFD')));
  });
});
