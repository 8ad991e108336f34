export { ProjectsTab } from './projects-tab';
export { HistoryTab } from './history-tab';
export { Pager } from './pager';
