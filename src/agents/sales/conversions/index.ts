export { logEventTask } from './log-event.ts';
export { providePerformanceFeedbackTask } from './performance-feedback.ts';
export { syncEventSourcesTask } from './sync-event-sources.ts';
