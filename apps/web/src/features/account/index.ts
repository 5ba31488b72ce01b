export { AccountLayout } from './AccountLayout.tsx';
export { AccountOverviewPage } from './AccountOverviewPage.tsx';
export { AccountApiPage } from './AccountApiPage.tsx';
