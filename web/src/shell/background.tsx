import './background.css';
import type { BackgroundState } from './use-background.ts';

/**
 * Decorative full-screen image(s) behind the page. Text never sits on them directly (it sits on
 * solid surfaces), so contrast does not depend on the artwork.
 */
export function Background({ layers, active }: BackgroundState) {
  const rotating = layers.length > 1;
  return (
    <div className={rotating ? 'background background--rotating' : 'background'} aria-hidden="true">
      {layers.map((src, index) => (
        <img
          key={src}
          src={src}
          alt=""
          decoding="async"
          className={index === active ? 'background__layer background__layer--active' : 'background__layer'}
        />
      ))}
    </div>
  );
}
