export { NotFoundPage } from './not-found-page';
export { MessagePage } from './message-page';
