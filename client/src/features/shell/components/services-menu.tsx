import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { ChevronDown } from 'lucide-react';
import { Link } from 'react-router';
import { TIMINGS } from '../../../config/constants';
import { useStore } from '../../../stores';
import { ServiceAvailabilityMark, useServicesStatus } from '../../availability';
import { serviceLinks } from '../service-links';

/**
 * Services dropdown: opens on hover with a mouse (closing 200 ms after the pointer leaves), toggles on tap
 * or Enter, and closes on Escape (focus back on the button) or a click elsewhere. A mouse click reaches the
 * button after the hover has opened the menu, so a click on a hover-opened menu keeps it open (and pinned:
 * leaving no longer closes it) instead of toggling it shut under the pointer.
 */
export const ServicesMenu = observer(function ServicesMenu() {
  const { auth, t } = useStore();
  const [open, setOpen] = useState(false);
  // How the menu is open: 'hover' closes when the pointer leaves, 'pinned' only by a click, Escape or a choice.
  const openedBy = useRef<'hover' | 'pinned'>('pinned');
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const cancelClose = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  };
  const scheduleClose = () => {
    cancelClose();
    closeTimer.current = setTimeout(() => setOpen(false), TIMINGS.dropdownCloseDelayMs);
  };

  useEffect(() => {
    if (!open) return;
    const onDocClick = (event: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('click', onDocClick);
    return () => document.removeEventListener('click', onDocClick);
  }, [open]);

  useEffect(() => cancelClose, []);
  useServicesStatus(open);

  const onPointerEnter = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    cancelClose();
    if (!open) openedBy.current = 'hover';
    setOpen(true);
  };
  const onPointerLeave = (event: PointerEvent) => {
    if (event.pointerType === 'mouse' && openedBy.current === 'hover') scheduleClose();
  };
  const onButtonClick = () => {
    cancelClose();
    if (open && openedBy.current === 'hover') {
      openedBy.current = 'pinned';
      return;
    }
    openedBy.current = 'pinned';
    setOpen(!open);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <div
      className="services-menu"
      ref={rootRef}
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
      onKeyDown={onKeyDown}
    >
      <button
        ref={buttonRef}
        type="button"
        className="nav-link services-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={onButtonClick}
      >
        {t('shell.nav.services')}
        <ChevronDown
          aria-hidden="true"
          className={open ? 'services-menu__chevron services-menu__chevron--open' : 'services-menu__chevron'}
        />
      </button>
      <ul id={menuId} className="services-menu__list" hidden={!open}>
        {serviceLinks(auth.isAuthenticated).map((item) => (
          <li key={item.key}>
            <Link className="services-menu__item" to={item.to} onClick={() => setOpen(false)}>
              <ServiceAvailabilityMark tool={item.tool} label={t(item.key)} />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
});
