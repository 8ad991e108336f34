export { addEnglish, en, type MessageKey, type Messages } from './en';
export { translate, type MessageVars, type Translate } from './translate';
