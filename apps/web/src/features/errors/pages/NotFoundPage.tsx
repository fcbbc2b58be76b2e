import { useSearchParams } from 'react-router';
import { ErrorView } from '../components/ErrorView';

/** /error-404?type=…&id=… */
export default function NotFoundPage() {
  const [params] = useSearchParams();
  return <ErrorView status={404} type={params.get('type')} id={params.get('id')} />;
}
