import { Center, Loader } from '@mantine/core';
import classes from './page-loader.module.css';

/** While a screen's code is on its way (first load of a lazy route). */
export function PageLoader() {
  return (
    <Center h="100vh" className={classes.loader} data-testid="page-loader">
      <Loader size="sm" />
    </Center>
  );
}
