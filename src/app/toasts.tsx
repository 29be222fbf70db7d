import { ToastContainer } from 'react-toastify';

/** The one toast container: top-right, 4000 ms, at most 3 at a time. Loaded after the first render. */
export function Toasts({ theme }: { theme: 'light' | 'dark' }) {
  return <ToastContainer position="top-right" autoClose={4000} limit={3} theme={theme} newestOnTop />;
}

export default Toasts;
