// The admin area's building blocks: every admin screen uses these (see each file's comment).
export { AdminPage, ADMIN_FLASH } from './AdminPage.tsx';
export { AdminList } from './AdminList.tsx';
export { useListParams, type ListParams } from './useListParams.ts';
export { ListToolbar, SEARCH_DEBOUNCE_MS, type ListFilter } from './ListToolbar.tsx';
export { DataTable, type Column } from './DataTable.tsx';
export { Paginator } from './Paginator.tsx';
export { ConfirmAction } from './ConfirmAction.tsx';
export {
  FormText,
  FormTextArea,
  FormSelect,
  FormCheckbox,
  SelectField,
  applyFieldErrors,
} from './FormField.tsx';
export { Tabs, type TabLink } from './Tabs.tsx';
export { StatusBadge, type BadgeTone } from './StatusBadge.tsx';
export { ItemLoader } from './ItemLoader.tsx';
export { LinkButton } from './LinkButton.tsx';
export { DetailList } from './DetailList.tsx';
export { UserPicker } from './UserPicker.tsx';
export { problemsResolver, type FormProblems } from './problemsResolver.ts';
