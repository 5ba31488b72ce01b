export { AccountLayout } from './AccountLayout.tsx';
export { AccountOverviewPage } from './AccountOverviewPage.tsx';
export { AccountApiPage } from './AccountApiPage.tsx';
export { AccountSshPage } from './AccountSshPage.tsx';
export { AccountActivityPage } from './AccountActivityPage.tsx';
