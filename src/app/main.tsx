import { createRoot } from 'react-dom/client';

function Placeholder() {
  return <p>Awards Console</p>;
}

createRoot(document.getElementById('root')!).render(<Placeholder />);
