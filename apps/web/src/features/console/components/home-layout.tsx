import { Outlet } from 'react-router';
import { AppHeader } from './app-header';
import classes from './home-layout.module.css';

export function HomeLayout() {
  return (
    <div className={classes.shell}>
      <AppHeader />
      <main className={classes.main}>
        <Outlet />
      </main>
    </div>
  );
}
