export { ProjectsTab } from './projects-tab';
