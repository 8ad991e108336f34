export { addEnglish, en, type MessageKey, type Messages } from './en';
export { translate, type MessageVars, type Translate } from './translate';
export { plural, type PluralKeys } from './plural';
