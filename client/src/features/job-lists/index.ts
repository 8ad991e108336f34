export { ProjectsTab } from './projects-tab';
export { HistoryTab } from './history-tab';
