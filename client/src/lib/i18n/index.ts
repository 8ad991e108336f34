export { addEnglish, en, type MessageKey, type Messages } from './en';
export { interpolate, translate, type MessageVars, type Translate } from './translate';
